import { escapeHtml } from '../wire/html-escape';

/**
 * ASP.NET's HTML error page ("Server Error in '/' Application."), which ASMX answers with where no
 * protocol of the service takes the request: an unknown .asmx, a method the service does not
 * serve, the script proxy of a service without [ScriptService]. Only the message, never a stack
 * trace or version line.
 */

const STYLE = `
         body {font-family:"Verdana";font-weight:normal;font-size: .7em;color:black;}
         p {font-family:"Verdana";font-weight:normal;color:black;margin-top: -5px}
         b {font-family:"Verdana";font-weight:bold;color:black;margin-top: -5px}
         H1 { font-family:"Verdana";font-weight:normal;font-size:18pt;color:red }
         H2 { font-family:"Verdana";font-weight:normal;font-size:14pt;color:maroon }`;

function errorPage(title: string, description: string, detailLabel: string, detail: string): string {
  return `<!DOCTYPE html>
<html>
    <head>
        <title>${escapeHtml(title)}</title>
        <meta name="viewport" content="width=device-width" />
        <style>${STYLE}
        </style>
    </head>

    <body bgcolor="white">

            <span><H1>Server Error in '/' Application.<hr width=100% size=1 color=silver></H1>

            <h2> <i>${escapeHtml(title)}</i> </h2></span>

            <font face="Arial, Helvetica, Geneva, SunSans-Regular, sans-serif ">

            <b> Description: </b>${description}
            <br><br>

            <b> ${detailLabel}: </b>${escapeHtml(detail)}<br><br>

            </font>

    </body>
</html>
`;
}

const NOT_FOUND_DESCRIPTION =
  'HTTP 404. The resource you are looking for (or one of its dependencies) could have been removed, had its name ' +
  'changed, or is temporarily unavailable. &nbsp;Please review the following URL and make sure that it is spelled ' +
  'correctly.';

/** 404: the path names no endpoint (or nothing at all). */
export function notFoundPage(path: string): string {
  return errorPage('The resource cannot be found.', NOT_FOUND_DESCRIPTION, 'Requested URL', path);
}

const UNHANDLED_DESCRIPTION = 'An unhandled exception occurred during the execution of the current web request.';

/** An exception ASP.NET reports on its error page: its .NET type and its message. */
export interface PageException {
  readonly exceptionType: string;
  readonly message: string;
}

export function exceptionPage({ exceptionType, message }: PageException): string {
  return errorPage(message, UNHANDLED_DESCRIPTION, 'Exception Details', `${exceptionType}: ${message}`);
}

/** 405: ASMX has no protocol for this method (HEAD, PUT, ...) on an endpoint. */
export const UNRECOGNIZED_FORMAT: PageException = {
  exceptionType: 'System.Web.HttpException',
  message: 'Request format is unrecognized.',
};

/** 500: /X.asmx/js asks for the script proxy, which ASMX serves only for a [ScriptService] class. */
export const NO_SCRIPT_SERVICE: PageException = {
  exceptionType: 'System.InvalidOperationException',
  message: 'Only Web services with a [ScriptService] attribute on the class definition can be called from script.',
};
