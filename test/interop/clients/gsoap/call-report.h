// What the generated gSOAP calls share: sample arguments, and one JSON line per call.
// C++ has no reflection, so test/interop/gsoap-client-source.ts writes one call per operation of
// the proxies soapcpp2 generated; this header keeps that generated code down to the calls.
#ifndef CALL_REPORT_H
#define CALL_REPORT_H

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "json-string.h"
#include "stdsoap2.h"

// Sample values by member type; the service only needs well-typed arguments. The generated
// request members are pointers for the optional (minOccurs="0") string elements. A string member
// whose rules need a particular form gets the environment variable SAMPLE_<name>, set by the test.
inline void fillSample(std::string *&member, const char *name) {
  static std::map<std::string, std::string> samples;
  const char *value = std::getenv(("SAMPLE_" + std::string(name)).c_str());
  std::string &sample = samples[name];
  sample = value == nullptr ? "1" : value;
  member = &sample;
}

inline void fillSample(int &member, const char *) { member = 1; }

// With SERVICE_USER and SERVICE_SECRET set, the proxy sends them with every call (HTTP Basic).
template <typename Proxy>
void authenticate(Proxy &proxy) {
  const char *user = std::getenv("SERVICE_USER");
  if (user == nullptr || *user == '\0') return;
  proxy.soap->userid = user;
  proxy.soap->passwd = std::getenv("SERVICE_SECRET");
}

// The path of an absolute http URL: the endpoint the proxy really called.
inline std::string pathOf(const char *url) {
  std::string text = url == nullptr ? "" : url;
  std::string::size_type authority = text.find("//");
  std::string::size_type path = authority == std::string::npos ? std::string::npos : text.find('/', authority + 2);
  return path == std::string::npos ? "" : text.substr(path);
}

// Prints the JSON line of one finished call. The version is the one gSOAP used for the exchange
// (soapcpp2 -1 or -2 fixed it in the proxy), and a fault or transport error is reported, not
// fatal, so that every call runs.
template <typename Proxy>
void report(Proxy &proxy, const char *operation, int status, const std::string *result) {
  std::string line = "{\"endpoint\":" + jsonString(pathOf(proxy.soap_endpoint)) +
                     ",\"operation\":" + jsonString(operation) +
                     ",\"version\":" + jsonString(proxy.soap->version == 2 ? "1.2" : "1.1");
  if (status == SOAP_OK) {
    line += ",\"ok\":true,\"result\":" + (result == nullptr ? std::string("null") : jsonString(*result));
  } else {
    char fault[1024];
    proxy.soap_sprint_fault(fault, sizeof fault);
    line += ",\"ok\":false,\"error\":" + jsonString(fault);
  }
  std::printf("%s}\n", line.c_str());
  std::fflush(stdout);
}

#endif
