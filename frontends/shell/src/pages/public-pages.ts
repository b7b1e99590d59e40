// The pages only visitors open (routes.tsx fetches them as one chunk): a member's first visit skips them.
export { ForgotPasswordPage } from './auth/forgot-password';
export { LoginPage } from './auth/login';
export { RegisterPage } from './auth/register';
export { ResetPasswordPage } from './auth/reset-password';
export { LandingPage } from './landing';
