"""JSON Schema ``format`` values as full-string ECMA-262 patterns.

Each pattern follows the format's RFC grammar.  Where the RFC needs more than
a regular language, the pattern accepts a subset (never a wider set):

* ``hostname``/``email`` domains: labels of 1..63 characters; labels with
  ``--`` in positions 3-4 (``xn--`` A-labels and other reserved labels) are
  rejected, since checking Punycode is not regular.
* ``hostname``: :data:`HOSTNAME` is the label grammar only. The 253-character
  total is added by :mod:`pse.automata.hostname`, which ``string_machine`` and
  ``string_dfa`` use instead of this pattern. ``email`` follows RFC 5321's
  ``Mailbox`` ABNF, which has no length limits.
* ``date``: years 0001-9999, as Python's ``datetime.date`` (which jsonschema's
  ``date`` checker uses); RFC 3339's grammar also allows 0000, which
  ``date-time`` keeps.
* ``time``/``date-time``: a leap second (``:60``) is accepted exactly when it
  falls on 23:59:60 UTC, for offsets whose minutes are 00, 30 or 45.
"""

from __future__ import annotations

from functools import cache

from pse_core.errors import SchemaError

_DEC_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
IPV4 = rf"{_DEC_OCTET}(?:\.{_DEC_OCTET}){{3}}"

_H16 = r"[0-9A-Fa-f]{1,4}"
_LS32 = rf"(?:{_H16}:{_H16}|{IPV4})"


def _ipv6() -> str:
    forms = [
        rf"(?:{_H16}:){{6}}{_LS32}",
        rf"::(?:{_H16}:){{5}}{_LS32}",
        rf"(?:{_H16})?::(?:{_H16}:){{4}}{_LS32}",
        rf"(?:(?:{_H16}:){{0,1}}{_H16})?::(?:{_H16}:){{3}}{_LS32}",
        rf"(?:(?:{_H16}:){{0,2}}{_H16})?::(?:{_H16}:){{2}}{_LS32}",
        rf"(?:(?:{_H16}:){{0,3}}{_H16})?::{_H16}:{_LS32}",
        rf"(?:(?:{_H16}:){{0,4}}{_H16})?::{_LS32}",
        rf"(?:(?:{_H16}:){{0,5}}{_H16})?::{_H16}",
        rf"(?:(?:{_H16}:){{0,6}}{_H16})?::",
    ]
    return "(?:" + "|".join(forms) + ")"


IPV6 = _ipv6()


def _date(year: str, leap_year: str) -> str:
    """full-date of RFC 3339 with the given year and leap-year patterns."""
    return (
        "(?:"
        rf"{year}-(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])"
        rf"|{year}-(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)"
        rf"|{year}-02-(?:0[1-9]|1[0-9]|2[0-8])"
        rf"|{leap_year}-02-29"
        ")"
    )


_LEAP_CENTURY = "(?:0[48]|[2468][048]|[13579][26])"
# RFC 3339's full-date: any four digits, 0000 (a leap year) included.
_RFC_DATE = _date("[0-9]{4}", rf"(?:[0-9]{{2}}{_LEAP_CENTURY}|(?:00|{_LEAP_CENTURY})00)")
# Years 0001-9999 (Python's datetime.date, which jsonschema's `date` checker uses).
DATE = _date(
    "(?:[0-9]{3}[1-9]|[0-9]{2}[1-9]0|[0-9][1-9]00|[1-9]000)",
    rf"(?:[0-9]{{2}}{_LEAP_CENTURY}|{_LEAP_CENTURY}00)",
)


def _time() -> str:
    frac = r"(?:\.[0-9]+)?"
    offset = r"(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
    ordinary = rf"(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]{frac}{offset}"
    # 23:59:60 UTC, seen from each offset with minutes 00, 30 or 45.
    leap = [rf"23:59:60{frac}(?:[Zz]|[+-]00:00)"]
    for sign in (1, -1):
        for off_h in range(24):
            for off_m in (0, 30, 45):
                if off_h == 0 and off_m == 0:
                    continue
                total = (23 * 60 + 59 + sign * (off_h * 60 + off_m)) % (24 * 60)
                hh, mm = divmod(total, 60)
                s = "+" if sign > 0 else "-"
                leap.append(rf"{hh:02d}:{mm:02d}:60{frac}\{s}{off_h:02d}:{off_m:02d}")
    return "(?:" + ordinary + "|" + "|".join(leap) + ")"


TIME = _time()
DATE_TIME = rf"{_RFC_DATE}[Tt]{TIME}"

_D = "[0-9]+"
DURATION = (
    rf"P(?:(?:{_D}D|{_D}M(?:{_D}D)?|{_D}Y(?:{_D}M(?:{_D}D)?)?)"
    rf"(?:T(?:{_D}H(?:{_D}M(?:{_D}S)?)?|{_D}M(?:{_D}S)?|{_D}S))?"
    rf"|T(?:{_D}H(?:{_D}M(?:{_D}S)?)?|{_D}M(?:{_D}S)?|{_D}S)"
    rf"|{_D}W)"
)

UUID = "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"

# Labels of 1..63 letters, digits and hyphens, not starting or ending with a
# hyphen, and without '--' in positions 3-4 (reserved / A-labels). HOSTNAME has
# no total length limit: hostname.py adds it (do not use it for `hostname` alone).
_AN = "[A-Za-z0-9]"
_LDH = "[A-Za-z0-9-]"
_LABEL = (
    f"(?:{_AN}(?:{_AN}|{_LDH}{_AN}|{_LDH}{_LDH}{_AN}"
    f"|{_LDH}(?:{_AN}{_LDH}|{_LDH}{_AN}){_LDH}{{0,58}}{_AN})?)"
)
HOSTNAME = rf"{_LABEL}(?:\.{_LABEL})*"

_ATEXT = r"[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]"
_DOT_STRING = rf"{_ATEXT}+(?:\.{_ATEXT}+)*"
_QUOTED = r'"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"'
EMAIL = rf"(?:{_DOT_STRING}|{_QUOTED})@(?:{HOSTNAME}|\[{IPV4}\]|\[IPv6:{IPV6}\])"

# RFC 3986 (URI) and RFC 3987 (IRI).
_UCSCHAR = (
    r"\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF\u{10000}-\u{1FFFD}\u{20000}-\u{2FFFD}"
    r"\u{30000}-\u{3FFFD}\u{40000}-\u{4FFFD}\u{50000}-\u{5FFFD}\u{60000}-\u{6FFFD}"
    r"\u{70000}-\u{7FFFD}\u{80000}-\u{8FFFD}\u{90000}-\u{9FFFD}\u{A0000}-\u{AFFFD}"
    r"\u{B0000}-\u{BFFFD}\u{C0000}-\u{CFFFD}\u{D0000}-\u{DFFFD}\u{E1000}-\u{EFFFD}"
)
_IPRIVATE = r"\uE000-\uF8FF\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}"


def _uri_grammar(iri: bool) -> tuple[str, str]:
    """(absolute URI/IRI, URI/IRI reference) patterns."""
    extra = _UCSCHAR if iri else ""
    unreserved = rf"A-Za-z0-9\-._~{extra}"
    sub_delims = r"!$&'()*+,;="
    pct = "%[0-9A-Fa-f]{2}"
    pchar = rf"(?:[{unreserved}{sub_delims}:@]|{pct})"
    scheme = r"[A-Za-z][A-Za-z0-9+\-.]*"
    userinfo = rf"(?:[{unreserved}{sub_delims}:]|{pct})*"
    ipvfuture = rf"[vV][0-9A-Fa-f]+\.[{unreserved}{sub_delims}:]+"
    host = rf"(?:\[(?:{IPV6}|{ipvfuture})\]|{IPV4}|(?:[{unreserved}{sub_delims}]|{pct})*)"
    authority = rf"(?:{userinfo}@)?{host}(?::[0-9]*)?"
    segment = f"{pchar}*"
    segment_nz = f"{pchar}+"
    segment_nz_nc = rf"(?:[{unreserved}{sub_delims}@]|{pct})+"
    path_abempty = f"(?:/{segment})*"
    path_absolute = f"/(?:{segment_nz}(?:/{segment})*)?"
    path_rootless = f"{segment_nz}(?:/{segment})*"
    path_noscheme = f"{segment_nz_nc}(?:/{segment})*"
    private = _IPRIVATE if iri else ""
    query = rf"(?:{pchar}|[/?{private}])*"
    fragment = rf"(?:{pchar}|[/?])*"
    hier = f"(?://{authority}{path_abempty}|{path_absolute}|{path_rootless})?"
    tail = rf"(?:\?{query})?(?:#{fragment})?"
    absolute = f"{scheme}:{hier}{tail}"
    relative = f"(?://{authority}{path_abempty}|{path_absolute}|{path_noscheme})?{tail}"
    return absolute, f"(?:{absolute}|{relative})"


URI, URI_REFERENCE = _uri_grammar(iri=False)
IRI, IRI_REFERENCE = _uri_grammar(iri=True)


def _uri_template() -> str:
    # RFC 6570 literals, plus "'" (%x27), which the JSON-Schema-Test-Suite accepts.
    pct = "%[0-9A-Fa-f]{2}"
    literal = (
        rf"(?:[\x21\x23\x24\x26-\x3b\x3d\x3f-\x5b\x5d\x5f\x61-\x7a\x7e{_UCSCHAR}{_IPRIVATE}]|{pct})"
    )
    varchar = rf"(?:[A-Za-z0-9_]|{pct})"
    varname = rf"{varchar}(?:\.?{varchar})*"
    varspec = rf"{varname}(?::[1-9][0-9]{{0,3}}|\*)?"
    expression = rf"\{{[+#./;?&]?{varspec}(?:,{varspec})*\}}"
    return rf"(?:{literal}|{expression})*"


URI_TEMPLATE = _uri_template()
JSON_POINTER = "(?:/(?:[^/~]|~[01])*)*"
RELATIVE_JSON_POINTER = rf"(?:0|[1-9][0-9]*)(?:[+-](?:0|[1-9][0-9]*))?(?:#|{JSON_POINTER})"

FORMAT_PATTERNS: dict[str, str] = {
    "date": DATE,
    "time": TIME,
    "date-time": DATE_TIME,
    "duration": DURATION,
    "email": EMAIL,
    "hostname": HOSTNAME,
    "ipv4": IPV4,
    "ipv6": IPV6,
    "uuid": UUID,
    "uri": URI,
    "uri-reference": URI_REFERENCE,
    "iri": IRI,
    "iri-reference": IRI_REFERENCE,
    "uri-template": URI_TEMPLATE,
    "json-pointer": JSON_POINTER,
    "relative-json-pointer": RELATIVE_JSON_POINTER,
}

SUPPORTED_FORMATS: frozenset[str] = frozenset(FORMAT_PATTERNS)


@cache
def format_pattern(name: str) -> str:
    """The anchored (full-string) pattern of a supported format."""
    pattern = FORMAT_PATTERNS.get(name)
    if pattern is None:
        raise SchemaError(
            f"format {name!r} cannot be enforced", code="unsupported-format", keyword="format"
        )
    return pattern
