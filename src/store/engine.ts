/** The two database engines the store runs on, from the same code and migrations. */
export type Engine = 'sqlite' | 'postgres';
