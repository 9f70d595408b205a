export {
  createMailer,
  type Mailer,
  type MailSettings,
  mailDestination,
  type OutgoingMail,
  sendInBackground,
} from "./mailer.js";
export {
  invitationMail,
  type MailContent,
  newSignInMail,
  passwordResetMail,
  signInLinkMail,
} from "./messages.js";
