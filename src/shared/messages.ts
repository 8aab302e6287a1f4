import { MAX_REQUEST_PHOTOS } from './constants';

/**
 * Every validation message and toast text of the spec (sections 5 and 8), written once and used by
 * the forms, the server's validation and the tests.
 */
export const messages = {
  /** A client without an e-mail (phoned in, imported): what every screen that would e-mail them says. */
  noEmail: 'No e-mail on file: nothing is e-mailed to this client',
  // Quote form and contact form (spec section 5)
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  emailInvalid: 'Please enter a valid email address',
  streetRequired: 'Street address is required',
  cityRequired: 'City is required',
  stateRequired: 'State is required',
  zipRequired: 'Zip code is required',
  specificationsRequired: 'Specifications are required',
  messageRequired: 'Message is required',
  filesTooLarge: 'Files exceed the maximum size limit of 3 MB',
  /** A photo past the most a request takes (MAX_REQUEST_PHOTOS): the first ones are kept. */
  tooManyPhotos: `You can send at most ${MAX_REQUEST_PHOTOS} photos: the first ${MAX_REQUEST_PHOTOS} are kept.`,
  // Sign in
  loginRequired: 'Username and password required',
  loginNoToken: 'Error receiving token, login failed',
  loginSuccess: 'Login Successful',
  loginInvalid: 'Invalid username or password',
  twoStepRequired: 'Enter the 6-digit code from your authenticator app',
  twoStepSetupRequired:
    'Your business requires two-step sign-in for Owner and Office accounts. Turn it on below to continue.',
  twoStepInvalid: 'That code is not right. Type the 6 digits your app shows now, or a recovery code.',
  loggedOut: 'Successfully logged out!',
  // Quote number lookup
  quoteNumberRequired: 'Please enter your quote number.',
  quoteNumberInvalid: 'Invalid quote number.',
  /** The lookup could not be made (server error, no network): not the client's number's fault. */
  lookupFailed: 'Something went wrong, please try again',
  // Toasts (spec section 8)
  tooManyAttempts: 'Too many attempts. Please wait ten minutes and try again.',
  quoteSubmitError: 'Error submitting. Please check your inputs and try again.',
  contactSuccess: 'Successfully submitted contact request!',
  contactError: 'Error submitting contact request. Please try again.',
  quoteSent: 'Quote sent successfully',
  quoteAccepted: 'Quote accepted successfully',
  quoteDeclined: 'Quote declined successfully',
  quoteSendError: 'Failed to send quote',
  quoteAcceptError: 'Error accepting quote',
  quoteDeclineError: 'Error declining quote',
  usernameTaken: 'Username already exists',
  userAddError: 'Error adding user. Please try again',
  userUpdateError: 'Error updating user. Please try again',
  userAdded: 'User added successfully',
  userUpdated: 'User updated successfully',
  userDeleteError: 'Error deleting user. Please try again',
  usersLoadError: 'Error fetching users. Please try again later.',
  workerAlreadyAssigned: 'Worker already assigned',
  jobNotFound: 'Job Not Found',
  // Settings (beyond the spec)
  settingsSaved: 'Settings saved',
  settingsSaveError: 'Error saving settings. Please try again',
  settingsLoadError: 'Error fetching settings. Please try again later.',
  logoSaved: 'Logo updated',
  logoRemoved: 'Logo removed',
  logoError: 'Error saving the logo. Please try again',
} as const;
