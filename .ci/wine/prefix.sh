# Sourced by .ci/cross and .ci/dist: `wine_prefix DIR` makes a Wine prefix in DIR that runs
# a Rust binary built for x86_64-pc-windows-gnu as Windows 10 would, and defines `wine_run EXE
# ARGS...` (output without carriage returns, the program's exit code) and `winpath PATH` (a
# Linux path as Windows sees it). Needs Debian's wine64 and mingw-w64.

# Debian's wine64 package puts its loader here, not on PATH.
WINE=/usr/lib/wine/wine64

wine_prefix() {
  WINEPREFIX="$1"
  export WINEPREFIX WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
  "$WINE" wineboot --init
  # Rust's std imports ProcessPrng from bcryptprimitives.dll, which Wine 8 lacks.
  x86_64-w64-mingw32-gcc -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
    "$(dirname "${BASH_SOURCE[0]}")/bcryptprimitives.c" -lbcrypt
  # Wine answers as Windows 7 unless told otherwise.
  "$WINE" winecfg /v win10
  # Let the prefix settle (registry written, wineserver gone) before the first real run.
  /usr/lib/wine/wineserver -w
}

# Ends what Wine left running in the prefix, if one was made (for an EXIT trap).
wine_stop() {
  [ -z "${WINEPREFIX:-}" ] || /usr/lib/wine/wineserver -k 2>/dev/null || true
}

wine_run() {
  local exe=$1
  shift
  "$WINE" "$exe" "$@" | tr -d '\r'
  return "${PIPESTATUS[0]}"
}

# A Linux path as the Windows build sees it (Wine maps / to Z:).
winpath() { printf 'Z:%s' "$(realpath "$1" | tr '/' '\\')"; }
