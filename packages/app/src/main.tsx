import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { language } from "./i18n/index.js";
import { applyTheme } from "./layout/ThemeSwitch.js";
import { router } from "./routes/router.js";
import "./styles/app.css";

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A 4xx will not change on retry (and a 401 is already on its way to sign in).
      retry: (failures, error) => failures < 2 && !isClientError(error),
    },
  },
});

function isClientError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const status =
    "status" in error ? error.status : "error" in error ? (error.error as { code?: unknown }).code : 0;
  return typeof status === "number" && status >= 400 && status < 500;
}

// Before the first render: the chosen theme and language, with no flash of the other.
applyTheme();
document.documentElement.lang = language;

const root = document.getElementById("root");
if (root)
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
