#!/usr/bin/env bash
# Installs the Debian packages the tests drive for real: Chromium for the test-form browser test,
# and the SOAP client stacks of the interop tests (python3-zeep, PHP SoapClient, JAX-WS wsimport,
# gSOAP, Mono's wsdl), PostgreSQL for the store tests, poppler-utils (pdftotext, pdftoppm,
# pdfinfo) to read the generated report PDFs, haproxy for the nodes behind a balancer (openssl for
# the district balancer test's certificate), and systemd's systemd-analyze to check deploy/'s unit.
# Never downloads a browser or anything outside Debian's and npm's registries.
set -euo pipefail

packages=(
  chromium
  python3-zeep
  php-cli php-soap
  jaxws libjaxws-java
  gsoap libgsoap-dev
  mono-devel
  g++ pkg-config
  wrk
  postgresql
  poppler-utils
  haproxy
  openssl
  systemd
)

run_as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "test tools: all Debian packages present"
  exit 0
fi

echo "test tools: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
run_as_root apt-get update -qq
run_as_root apt-get install -y -qq --no-install-recommends "${missing[@]}"
