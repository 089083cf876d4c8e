#!/usr/bin/env bash
# Install Debian's Chromium and its matching chromedriver for the site's browser tests, where missing.
# Needs root (or password-less sudo) and apt-get; anywhere else it says what to install and returns 0, and the
# browser tests are skipped (the test run's last line counts them), except where $CI or $ADVISOR_REQUIRE_BROWSER is
# set (.ci/run sets it): there they fail. It returns 1 only when apt-get itself failed.
set -euo pipefail
say() { printf 'install_browser: %s\n' "$*" >&2; }

if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    say "no apt-get here: install Chromium and a matching chromedriver yourself"
    exit 0
fi
run_as_root=()
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then say "not root and no sudo: skipping"; exit 0; fi
    if ! sudo -n true 2>/dev/null; then say "sudo asks for a password: skipping (run this script as root)"; exit 0; fi
    run_as_root=(sudo -n)
fi
say "installing chromium and chromium-driver (Debian packages)"
export DEBIAN_FRONTEND=noninteractive
if ! "${run_as_root[@]}" apt-get update -qq >/dev/null \
    || ! "${run_as_root[@]}" apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null; then
    say "apt-get could not install chromium and chromium-driver"
    exit 1
fi
