/** Escapes text content the way .NET's XmlWriter does: &, < and >. */
export function escapeXmlText(text: string): string {
  return /[&<>]/.test(text) ? text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : text;
}

/** Escapes an attribute value (double-quoted). */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/"/g, '&quot;');
}
