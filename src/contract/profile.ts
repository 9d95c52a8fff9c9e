/**
 * The two wire profiles: `documented` is the spec exactly (empty responses but HelloWorld's);
 * `typed` declares and carries a result for every operation. wsdl/ holds the documented files,
 * wsdl/typed/ the typed ones. JSON always carries the typed result.
 */
export type Profile = 'documented' | 'typed';
export const PROFILES: readonly Profile[] = ['documented', 'typed'];
