/**
 * A fault of the whole bundle rather than of one file's content (a bound passed, a bundle still
 * being written whose writing failed): the import stops and writes nothing, instead of reporting
 * it as a CSV problem at a line of the file it was reading.
 */
export class BundleStop extends Error {}
