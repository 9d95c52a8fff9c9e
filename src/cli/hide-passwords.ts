import { hidePasswordsFromProcessList } from '../lib/hidden-passwords';

/** Imported first by the command, for its effect: see hidden-passwords.ts. */
export const passwordsHidden = hidePasswordsFromProcessList();
