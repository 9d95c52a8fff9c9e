import { escapeHtml } from '../wire/html-escape';

/** ASMX's style sheet; its longest rules are written apart, each one line of the sheet. */
const HEADING1_RULE =
  '.heading1 { background-color: #003366; border-bottom: #336699 6px solid; color: #ffffff; font-family: Tahoma; ' +
  'font-size: 26px; font-weight: normal; margin: 0em 0em 10px -20px; padding-bottom: 8px; padding-left: 30px; ' +
  'padding-top: 16px; }';
const PRE_RULE =
  'pre { background-color: #e5e5cc; padding: 5px; font-family: Courier New; font-size: x-small; margin-top: -5px; ' +
  'border: 1px #f0f0e0 solid; white-space: pre-wrap; }';
const H2_RULE =
  'h2 { font-size: 1.5em; font-weight: bold; margin-top: 25px; margin-bottom: 10px; border-top: 1px solid #003366; ' +
  'margin-left: -15px; color: #003366; }';
const BUTTON_RULE =
  '.button { background-color: #dcdcdc; font-family: Verdana; font-size: 1em; border-top: #cccccc 1px solid; ' +
  'border-bottom: #666666 1px solid; border-left: #cccccc 1px solid; border-right: #666666 1px solid; }';
const FRMHEADER_RULE =
  '.frmheader { color: #000000; background: #dcdcdc; font-family: Verdana; font-size: .7em; font-weight: normal; ' +
  'border-bottom: 1px solid #dcdcdc; padding-top: 2px; padding-bottom: 2px; }';

const STYLE = `
    BODY { color: #000000; background-color: white; font-family: Verdana; margin-left: 0px; margin-top: 0px; }
    #content { margin-left: 30px; font-size: .70em; padding-bottom: 2em; }
    A:link { color: #336699; font-weight: bold; text-decoration: underline; }
    A:visited { color: #6699cc; font-weight: bold; text-decoration: underline; }
    A:active { color: #336699; font-weight: bold; text-decoration: underline; }
    ${HEADING1_RULE}
    ${PRE_RULE}
    td { color: #000000; font-family: Verdana; font-size: .7em; }
    ${H2_RULE}
    h3 { font-size: 1.1em; color: #000000; margin-left: -15px; margin-top: 10px; margin-bottom: 10px; }
    ul { margin-top: 10px; margin-left: 20px; }
    li { margin-top: 10px; color: #000000; }
    ${BUTTON_RULE}
    ${FRMHEADER_RULE}
    .frmtext { font-family: Verdana; font-size: .7em; margin-top: 8px; margin-bottom: 0px; margin-left: 32px; }
    .frmInput { font-family: Verdana; font-size: 1em; }
    .intro { margin-left: -15px; }
    .value { color: blue; }`;

/** The page frame ASMX's help generator draws: title, banner with the service name, content. */
export function page(serviceName: string, content: string): string {
  const name = escapeHtml(serviceName);
  return `<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8">
    <title>${name} Web Service</title>
    <style type="text/css">${STYLE}
    </style>
  </head>
  <body>
    <div id="content">
      <p class="heading1">${name}</p><br>
${content}
    </div>
  </body>
</html>
`;
}
