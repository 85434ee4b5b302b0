#!/usr/bin/env python3
"""UTS #46 ToASCII by ICU, through PyICU: the oracle of canon's TestIDNAAgainstICU.

Debian bookworm: apt-get install -y python3-icu (ICU 72, Unicode 15.0).

Protocol (all lines end in "\\n"):
  out, first line:  "icu <ICU version> <Unicode version> <PyICU version>",
                    or "no-icu <reason>" (then exit status 3) when the icu
                    module cannot be imported.
  in, then:         one name per line, as hex of its UTF-8.
  out, per name:    "<ICU error bits, hex> <ICU's nameToASCII result, hex of its UTF-8>".

The options are canon's (canon/host.go): nontransitional processing, CheckBidi
and CheckJoiners on; UseSTD3ASCIIRules off (no UIDNA_USE_STD3_RULES); no
CONTEXTO check (UTS #46 has none). ICU has no options for CheckHyphens and
VerifyDnsLength: it always reports those errors, and the Go test ignores them.

PyICU 2.10 spells ICU's uidna_openUTS46 / IDNA::createUTS46Instance as the
constructor icu.IDNA(options), and UIDNA_NONTRANSITIONAL_TO_ASCII,
UIDNA_CHECK_BIDI and UIDNA_CHECK_CONTEXTJ as icu.IDNA.CHECK_NONTRANSITIONAL_TO_ASCII,
CHECK_BIDI and CHECK_CONTEXTJ.
"""
import sys

try:
    import icu
except ImportError as e:  # the Go test skips on this
    sys.stdout.write("no-icu %s\n" % e)
    sys.stdout.flush()
    sys.exit(3)


# The error bits as canon/idnaicu_test.go reads them (uidna.h UIDNA_ERROR_*).
BITS = {
    "EMPTY_LABEL": 0x1, "LABEL_TOO_LONG": 0x2, "DOMAIN_NAME_TOO_LONG": 0x4,
    "LEADING_HYPHEN": 0x8, "TRAILING_HYPHEN": 0x10, "HYPHEN_3_4": 0x20,
    "LEADING_COMBINING_MARK": 0x40, "DISALLOWED": 0x80, "PUNYCODE": 0x100,
    "LABEL_HAS_DOT": 0x200, "INVALID_ACE_LABEL": 0x400, "BIDI": 0x800,
    "CONTEXTJ": 0x1000, "CONTEXTO_PUNCTUATION": 0x2000, "CONTEXTO_DIGITS": 0x4000,
}


def main():
    out = sys.stdout.buffer
    out.write(("icu %s %s %s\n" % (icu.ICU_VERSION, icu.UNICODE_VERSION, icu.VERSION)).encode())
    out.flush()
    for name, bit in BITS.items():
        got = getattr(icu.IDNAInfo, "ERROR_" + name, None)
        if got != bit:
            sys.exit("icu.IDNAInfo.ERROR_%s is %r, the Go test reads it as %#x" % (name, got, bit))
    I = icu.IDNA
    # uidna.h: UIDNA_CHECK_BIDI 0x4, UIDNA_CHECK_CONTEXTJ 0x8, UIDNA_NONTRANSITIONAL_TO_ASCII 0x10.
    options = I.CHECK_NONTRANSITIONAL_TO_ASCII | I.CHECK_BIDI | I.CHECK_CONTEXTJ
    if options != 0x1C:
        sys.exit("PyICU's IDNA options are %#x, want 0x1c" % options)
    uts46 = I(options)
    info = icu.IDNAInfo()
    to_ascii = uts46.nameToASCII
    res = []
    for line in sys.stdin.buffer:
        name = bytes.fromhex(line.strip().decode("ascii")).decode("utf-8")
        r = to_ascii(name, info)
        res.append("%x %s\n" % (info.errors(), str(r).encode("utf-8", "surrogatepass").hex()))
        if len(res) == 4096:
            out.write("".join(res).encode("ascii"))
            res.clear()
    out.write("".join(res).encode("ascii"))
    out.flush()


main()
