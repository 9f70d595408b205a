import { createBrowserRouter } from "react-router";
import { Shell } from "../layout/Shell.js";
import { Home } from "./Home.js";
import { NotFound } from "./NotFound.js";
import { APP_BASENAME } from "./paths.js";

/** The app's screens. Only the home is the single-page app today; other /app/ paths are the server's previews. */
export const router = createBrowserRouter(
  [
    { path: "/", element: <Shell />, children: [{ index: true, element: <Home /> }] },
    { path: "*", element: <NotFound /> },
  ],
  { basename: APP_BASENAME },
);
