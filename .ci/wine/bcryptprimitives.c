/* ProcessPrng for Wine 8 (Debian 12), which has no bcryptprimitives.dll: Rust's std on
 * Windows 10+ imports ProcessPrng from it for HashMap keys, so no Rust binary starts there
 * without it. Newer Wine ships the DLL; this one is only for running tests under Wine. */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG n = len > 0x7fffffff ? 0x7fffffff : (ULONG)len;
        if (BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
            return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
