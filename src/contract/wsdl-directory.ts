import { join } from 'node:path';

/**
 * The folder of the hand-authored WSDL files, wsdl/ at the top of the project: two levels above
 * this file in src/contract/, three above it once compiled into dist/src/contract/.
 */
export const WSDL_DIRECTORY = join(__dirname, __dirname.includes(join('dist', 'src')) ? '../../../wsdl' : '../../wsdl');
