// JSON string literals for the client programs' report lines; gSOAP has no JSON writer for plain
// strings. The bytes are copied as they are, so UTF-8 text stays UTF-8.
#ifndef JSON_STRING_H
#define JSON_STRING_H

#include <cstdio>
#include <string>

inline std::string jsonString(const std::string &text) {
  std::string literal = "\"";
  for (unsigned char character : text) {
    if (character == '"' || character == '\\') {
      literal += '\\';
      literal += static_cast<char>(character);
    } else if (character < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", character);
      literal += escaped;
    } else {
      literal += static_cast<char>(character);
    }
  }
  return literal + "\"";
}

#endif
