// JSON number literals -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? whose
// value meets numeric constraints, as a minimal DFA.
//
// A literal "M e X" has value sign * u * 10^X (u the unsigned mantissa). For
// every sign and every allowed exponent X there is a branch of checks on u:
// each bound becomes a threshold t = sign * bound * 10^-X that u is compared
// with digit by digit, and multipleOf becomes a remainder of u modulo
// d = multipleOf * 10^-X. The mantissa is read once while all branches run
// side by side; at its end the set of exponents whose branch accepts decides
// which exponents may follow. Exact: no floating point anywhere.
#include "automata/number_dfa.h"

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace pse {
namespace {

using u128 = unsigned __int128;

// The alphabet, as symbols 0..14: the ten digits, then these characters.
constexpr int kDigits = 10;
constexpr int kSymbols = 15;
constexpr int kDot = 10;
constexpr char kChars[kSymbols] = {'0', '1', '2', '3', '4', '5', '6', '7',
                                   '8', '9', '.', 'e', 'E', '+', '-'};

// Outcomes of a comparison as bits of NumberBound::allowed.
constexpr unsigned kLess = 1, kEqual = 2, kGreater = 4;

u128 pow10(int n) {
  u128 v = 1;
  while (n-- > 0) v *= 10;
  return v;
}

/// a % m, in 64 bits when both fit (the common case; 128-bit division is a library call).
u128 mod(u128 a, u128 m) {
  if ((a >> 64) == 0 && (m >> 64) == 0) return static_cast<std::uint64_t>(a) % static_cast<std::uint64_t>(m);
  return a % m;
}

u128 gcd(u128 a, u128 b) {
  while (b != 0) {
    u128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/// Compares u, read digit by digit, with a threshold t >= 0 given by its
/// integer digits (no leading zeros; "0" for t < 1) and fraction digits (no
/// trailing zeros). States: kG / kL (decided), kZ (equal so far with every
/// digit of t read; more zeros keep it equal), I(k, rel) >= kI (k integer
/// digits read, rel the comparison of those with t's first k), F(j) < 0 (j
/// fraction digits read, equal so far).
struct Comparator {
  std::string integer, fraction;
  unsigned allowed;

  static constexpr std::int32_t kG = 0, kL = 1, kZ = 2, kI = 3;
  static std::int32_t I(std::size_t k, int rel) { return kI + 3 * static_cast<std::int32_t>(k) + rel + 1; }
  static std::int32_t F(std::size_t j) { return -1 - static_cast<std::int32_t>(j); }

  std::int32_t step(std::int32_t s, int sym) const {
    if (s == kG || s == kL) return s;
    if (s == kZ) return sym == 0 || sym == kDot ? kZ : kG;
    if (s >= kI) {
      std::size_t k = static_cast<std::size_t>((s - kI) / 3);
      int rel = (s - kI) % 3 - 1;
      if (sym == kDot) {
        if (k < integer.size() || rel < 0) return kL;
        if (rel > 0) return kG;
        return fraction.empty() ? kZ : F(0);
      }
      if (k >= integer.size()) return kG;
      if (rel == 0) rel = (sym > integer[k] - '0') - (sym < integer[k] - '0');
      return I(k + 1, rel);
    }
    std::size_t j = static_cast<std::size_t>(-1 - s);
    int c = (sym > fraction[j] - '0') - (sym < fraction[j] - '0');
    if (c < 0) return kL;
    if (c > 0) return kG;
    return j + 1 < fraction.size() ? F(j + 1) : kZ;
  }

  /// The comparison of u with t if the mantissa ends here.
  unsigned result(std::int32_t s) const {
    if (s == kG) return kGreater;
    if (s == kL) return kLess;
    if (s == kZ) return kEqual;
    if (s >= kI) {
      std::size_t k = static_cast<std::size_t>((s - kI) / 3);
      int rel = (s - kI) % 3 - 1;
      if (k < integer.size() || (rel == 0 && !fraction.empty())) return kLess;
      return rel < 0 ? kLess : rel > 0 ? kGreater : kEqual;
    }
    return kLess;  // u's fraction is a proper prefix of t's
  }

  /// Outside the allowed outcomes whatever follows.
  bool dead(std::int32_t s) const {
    return (s == kG && !(allowed & kGreater)) || (s == kL && !(allowed & kLess));
  }
};

/// u modulo d = p/q (p <= max_remainders). In the integer part the state is
/// r = (u * q) mod p. After the point it is the deficit s = what must still be
/// added to u to reach a multiple of d, in units of 1/(q * 10^f) after f
/// fraction digits; more digits add less than 10^-f, so a live state has
/// s < q. f only matters while p * 10^f < q (the modulus can wrap), so it is
/// kept capped at `cap`.
struct Remainder {
  u128 p = 0, q = 1;
  std::int32_t cap = 1;
};

/// At most one comparator per bound keyword (minimum, exclusiveMinimum,
/// maximum, exclusiveMaximum): fixed in size, so states copy without allocating.
constexpr std::size_t kMaxBounds = 4;

struct BranchState {
  std::array<std::int32_t, kMaxBounds> cmp{};
  bool fraction = false;  // integer part (r) or fraction part (s, f)
  u128 value = 0;
  std::int32_t f = 0;
};

/// The checks on u for one (sign, exponent) pair.
struct Branch {
  bool valid = true;
  std::vector<Comparator> cmps;
  bool has_remainder = false;
  /// The exponent's multipleOf check needs too many states: only u = 0 (a
  /// multiple of everything) is kept.
  bool zero_only = false;
  bool negate = false;  // accept non-multiples; deficit q marks "never a multiple"
  Remainder rem;
  /// With q = 1: each integer-part remainder's class representative (see canonical_remainders).
  std::vector<std::uint32_t> canon;

  BranchState start() const {
    BranchState s;
    std::fill_n(s.cmp.begin(), cmps.size(), Comparator::I(0, 0));
    return s;
  }

  bool step(const BranchState& s, int sym, BranchState& out) const {
    for (std::size_t i = 0; i < cmps.size(); ++i) {
      out.cmp[i] = cmps[i].step(s.cmp[i], sym);
      if (cmps[i].dead(out.cmp[i])) return false;
    }
    if (zero_only && sym > 0 && sym < kDigits) return false;
    out.fraction = s.fraction;
    out.value = 0;
    out.f = 0;
    if (!has_remainder) return true;
    const u128 p = rem.p, q = rem.q;
    if (!s.fraction) {
      if (sym == kDot) {
        out.fraction = true;
        out.value = mod(p - s.value, p);
        return true;
      }
      out.value = mod(s.value * 10 + static_cast<u128>(sym) * q, p);
      if (!canon.empty()) out.value = canon[static_cast<std::size_t>(out.value)];
      return true;
    }
    if (negate && s.value >= q) {  // already past every multiple: stays a non-multiple
      out.value = q;
      out.f = rem.cap;
      return true;
    }
    const u128 modulus = p * pow10(s.f + 1);
    const u128 a = mod(s.value * 10, modulus), b = mod(static_cast<u128>(sym) * q, modulus);
    out.value = mod(a + modulus - b, modulus);
    out.f = std::min(s.f + 1, rem.cap);
    if (out.value < q) return true;
    if (!negate) return false;
    out.value = q;
    out.f = rem.cap;
    return true;
  }

  bool accepts(const BranchState& s) const {
    for (std::size_t i = 0; i < cmps.size(); ++i)
      if (!(cmps[i].result(s.cmp[i]) & cmps[i].allowed)) return false;
    return !has_remainder || ((s.value == 0) != negate);
  }
};

/// Digits of |bound| * 10^-x, split at the point, normalised.
void scaled_digits(const std::string& decimal, int x, std::string& integer, std::string& fraction) {
  std::string digits;
  std::size_t point = std::string::npos;
  for (char c : decimal) {
    if (c == '.') point = digits.size();
    else if (c >= '0' && c <= '9') digits.push_back(c);
  }
  if (point == std::string::npos) point = digits.size();
  std::ptrdiff_t pos = static_cast<std::ptrdiff_t>(point) - x;
  if (pos < 0) {
    digits.insert(0, static_cast<std::size_t>(-pos), '0');
    pos = 0;
  }
  if (static_cast<std::size_t>(pos) > digits.size()) digits.append(static_cast<std::size_t>(pos) - digits.size(), '0');
  integer = digits.substr(0, static_cast<std::size_t>(pos));
  fraction = digits.substr(static_cast<std::size_t>(pos));
  integer.erase(0, std::min(integer.find_first_not_of('0'), integer.size()));
  if (integer.empty()) integer = "0";
  fraction.erase(std::min(fraction.find_last_not_of('0') + 1, fraction.size()));
}

/// For u modulo an integer p (q = 1), remainders r1, r2 of the integer part
/// are equivalent when every digit string w leads both or neither to 0:
/// (r * 10^|w| + w) mod p == 0. For |w| = j that is w = t_j(r) =
/// (-r * 10^j) mod p when t_j < 10^j (else no w of that length); from the
/// first j with 10^j >= p on, t_j determines all later ones. So the class of r
/// is its (t_0, ..., t_J) signature; equivalent remainders give equivalent
/// states (the '.' and the end of the mantissa only ask whether r == 0, which
/// t_0 tells), and mapping each to the smallest of its class keeps the
/// construction from enumerating remainders the minimal DFA merges anyway
/// (type integer: 100 remainders modulo 100 become 3 classes).
std::vector<std::uint32_t> canonical_remainders(std::uint32_t p) {
  std::vector<std::uint32_t> canon(p);
  std::map<std::vector<std::int64_t>, std::uint32_t> first;
  std::vector<std::int64_t> signature;
  for (std::uint32_t r = 0; r < p; ++r) {
    signature.clear();
    std::uint64_t power = 1;  // 10^j, capped once it passes p
    std::uint64_t shifted = r;  // r * 10^j mod p
    while (true) {
      std::uint64_t t = (p - shifted) % p;
      signature.push_back(t < power ? static_cast<std::int64_t>(t) : -1);
      if (power >= p) break;
      power *= 10;
      shifted = shifted * 10 % p;
    }
    canon[r] = first.try_emplace(signature, r).first->second;
  }
  return canon;
}

Branch make_branch(const NumberConstraints& nc, int sign, int x) {
  Branch b;
  for (const NumberBound& bound : nc.bounds) {
    bool negative = !bound.decimal.empty() && bound.decimal[0] == '-';
    bool zero = bound.decimal.find_first_of("123456789") == std::string::npos;
    unsigned allowed = bound.allowed;
    if (sign < 0)  // -u vs t  <=>  u vs -t, reversed
      allowed = (allowed & kEqual) | (allowed & kLess ? kGreater : 0) | (allowed & kGreater ? kLess : 0);
    if (!zero && negative == (sign > 0)) {  // the threshold is negative: u > it always
      if (allowed & kGreater) continue;
      b.valid = false;
      return b;
    }
    Comparator c;
    c.allowed = allowed;
    scaled_digits(bound.decimal, x, c.integer, c.fraction);
    b.cmps.push_back(std::move(c));
  }
  if (nc.multiple_p != 0) {
    u128 p = nc.multiple_p, q = nc.multiple_q;
    if (x > 0) q *= pow10(x);
    else p *= pow10(-x);
    u128 g = gcd(p, q);
    p /= g;
    q /= g;
    // Exponent 0 always has its check (the caller bounds multiple_p); other
    // exponents only while they need no more states than it or max_remainders.
    if (p > std::max<u128>(nc.max_remainders, nc.multiple_p)) {
      b.valid = !nc.negate_multiple;  // 0 is never a non-multiple
      b.zero_only = true;
      return b;
    }
    b.has_remainder = true;
    b.negate = nc.negate_multiple;
    b.rem.p = p;
    b.rem.q = q;
    std::int32_t k = 0;
    while (p * pow10(k) < q) ++k;
    b.rem.cap = std::max(k, 1);
    if (q == 1 && p <= (1u << 16)) b.canon = canonical_remainders(static_cast<std::uint32_t>(p));
  }
  return b;
}

enum Kind : std::uint8_t { kStart, kNegative, kMantissa, kExponent, kExpSign, kExpDigits };
enum Syntax : std::uint8_t { kZero, kInt, kPoint, kFrac };  // "0", int digits, ".", fraction digits

struct State {
  Kind kind = kStart;
  std::int8_t sign = 1;
  Syntax syntax = kZero;
  std::vector<std::optional<BranchState>> comps;  // per exponent, for kMantissa
  std::uint32_t ok = 0;                            // exponents allowed (bit x + limit)
  std::int32_t v = 0;                              // exponent value read so far

  std::uint64_t hash() const {
    // One dependent multiply per branch (its four words are multiplied
    // independently first), one final mix: interning hashes every successor.
    constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
    std::uint64_t h = (static_cast<std::uint64_t>(kind) | static_cast<std::uint64_t>(static_cast<std::uint8_t>(sign)) << 8 |
                       static_cast<std::uint64_t>(syntax) << 16 | static_cast<std::uint64_t>(ok) << 32) *
                      kMul;
    h = (h ^ static_cast<std::uint32_t>(v)) * kMul;
    for (const auto& c : comps) {
      if (!c) {
        h = (h ^ 0xFF) * kMul;
        continue;
      }
      const std::uint64_t a = static_cast<std::uint64_t>(static_cast<std::uint32_t>(c->cmp[0])) << 32 |
                              static_cast<std::uint32_t>(c->cmp[1]);
      const std::uint64_t b = static_cast<std::uint64_t>(static_cast<std::uint32_t>(c->cmp[2])) << 32 |
                              static_cast<std::uint32_t>(c->cmp[3]);
      const std::uint64_t r = static_cast<std::uint64_t>(c->value) ^ static_cast<std::uint64_t>(c->value >> 64) * 31;
      const std::uint64_t f = static_cast<std::uint64_t>(static_cast<std::uint32_t>(c->f)) << 1 | (c->fraction ? 1 : 0);
      h = (h ^ (a * 0xC2B2AE3D27D4EB4Full + b * 0x165667B19E3779F9ull + r * 0xD6E8FEB86659FD93ull + f)) * kMul;
    }
    return h ^ (h >> 29);
  }

  bool operator==(const State& o) const {
    if (kind != o.kind || sign != o.sign || syntax != o.syntax || ok != o.ok || v != o.v ||
        comps.size() != o.comps.size())
      return false;
    for (std::size_t i = 0; i < comps.size(); ++i) {
      const auto &a = comps[i], &b = o.comps[i];
      if (a.has_value() != b.has_value()) return false;
      if (a && (a->cmp != b->cmp || a->fraction != b->fraction || a->value != b->value || a->f != b->f))
        return false;
    }
    return true;
  }
};

class Builder {
 public:
  explicit Builder(const NumberConstraints& nc) : nc_(nc), limit_(nc.exponent_limit) {
    for (int sign : {1, -1})
      for (int x = -limit_; x <= limit_; ++x) branches_[sign > 0 ? 0 : 1].push_back(make_branch(nc, sign, x));
  }

  bool build() {
    intern(State{});
    for (std::size_t i = 0; i < states_.size(); ++i) {
      if (states_.size() > nc_.max_states) return false;
      const State& s = states_[i];  // a deque: interning keeps references valid
      std::array<std::int32_t, kSymbols> row;
      row.fill(-1);
      bool accept = false;
      expand(s, row, accept);
      trans_.push_back(row);
      accepting_.push_back(accept);
    }
    return states_.size() <= nc_.max_states;
  }

  RangeDfa minimal() const;

 private:
  const std::vector<Branch>& of(int sign) const { return branches_[sign > 0 ? 0 : 1]; }

  std::int32_t intern(const State& s) {
    if (auto it = ids_.find(&s); it != ids_.end()) return it->second;
    auto id = static_cast<std::int32_t>(states_.size());
    states_.push_back(s);
    ids_.emplace(&states_.back(), id);
    return id;
  }

  /// The mantissa state after `sym`, or -1 when no branch survives.
  std::int32_t mantissa(int sign, Syntax syntax, const std::vector<std::optional<BranchState>>& comps,
                        int sym) {
    State& next = scratch_;  // reused: its branch states keep their buffers
    next.kind = kMantissa;
    next.sign = static_cast<std::int8_t>(sign);
    next.syntax = syntax;
    next.comps.resize(comps.size());
    bool any = false;
    const std::vector<Branch>& bs = of(sign);
    for (std::size_t i = 0; i < comps.size(); ++i) {
      if (!comps[i]) {
        next.comps[i].reset();
        continue;
      }
      if (!next.comps[i]) next.comps[i].emplace();
      if (bs[i].step(*comps[i], sym, *next.comps[i])) any = true;
      else next.comps[i].reset();
    }
    return any ? intern(next) : -1;
  }

  std::vector<std::optional<BranchState>> start_comps(int sign) const {
    std::vector<std::optional<BranchState>> comps;
    for (const Branch& b : of(sign)) comps.push_back(b.valid ? std::optional(b.start()) : std::nullopt);
    return comps;
  }

  void expand(const State& s, std::array<std::int32_t, kSymbols>& row, bool& accept) {
    switch (s.kind) {
      case kStart:
      case kNegative: {
        int sign = s.kind == kNegative ? -1 : 1;
        if (s.kind == kStart) {
          State n;
          n.kind = kNegative;
          n.sign = -1;
          row[14] = intern(n);
        }
        auto comps = start_comps(sign);
        for (int d = 0; d < kDigits; ++d) row[d] = mantissa(sign, d == 0 ? kZero : kInt, comps, d);
        break;
      }
      case kMantissa: {
        if (s.syntax == kInt || s.syntax == kFrac || s.syntax == kPoint)
          for (int d = 0; d < kDigits; ++d) row[d] = mantissa(s.sign, s.syntax == kInt ? kInt : kFrac, s.comps, d);
        if (s.syntax == kZero || s.syntax == kInt) row[kDot] = mantissa(s.sign, kPoint, s.comps, kDot);
        if (s.syntax != kPoint) {
          std::uint32_t ok = 0;
          const std::vector<Branch>& bs = of(s.sign);
          for (std::size_t i = 0; i < s.comps.size(); ++i)
            if (s.comps[i] && bs[i].accepts(*s.comps[i])) ok |= 1u << i;
          accept = (ok >> limit_) & 1u;
          if (ok) {
            State e;
            e.kind = kExponent;
            e.ok = ok;
            row[11] = row[12] = intern(e);
          }
        }
        break;
      }
      case kExponent:
      case kExpSign: {
        if (s.kind == kExponent)
          for (int sg : {1, -1}) {
            State y;
            y.kind = kExpSign;
            y.ok = s.ok;
            y.sign = static_cast<std::int8_t>(sg);
            row[sg > 0 ? 13 : 14] = intern(y);
          }
        for (int d = 0; d < kDigits; ++d) {
          State v;
          v.kind = kExpDigits;
          v.ok = s.ok;
          v.sign = s.kind == kExponent ? 1 : s.sign;
          v.v = d;
          row[d] = intern(v);
        }
        break;
      }
      case kExpDigits: {
        accept = allowed_exponent(s.ok, s.sign * s.v);
        for (int d = 0; d < kDigits; ++d) {
          std::int32_t nv = s.v * 10 + d;
          if (nv > limit_) continue;
          bool reachable = false;  // some allowed exponent of this sign is at least nv
          for (int x = -limit_; x <= limit_; ++x)
            if (allowed_exponent(s.ok, x) && std::abs(x) >= nv && x * s.sign >= 0) reachable = true;
          if (!reachable) continue;
          State v = s;
          v.v = nv;
          row[d] = intern(v);
        }
        break;
      }
    }
  }

  bool allowed_exponent(std::uint32_t ok, int x) const {
    return std::abs(x) <= limit_ && ((ok >> (x + limit_)) & 1u);
  }

  const NumberConstraints& nc_;
  int limit_;
  std::array<std::vector<Branch>, 2> branches_;
  struct Hash {
    std::size_t operator()(const State* s) const { return s->hash(); }
  };
  struct Equal {
    bool operator()(const State* a, const State* b) const { return *a == *b; }
  };
  std::deque<State> states_;  // a deque: references stay valid as it grows
  std::unordered_map<const State*, std::int32_t, Hash, Equal> ids_;
  State scratch_;
  std::vector<std::array<std::int32_t, kSymbols>> trans_;
  std::vector<bool> accepting_;
};

RangeDfa Builder::minimal() const {
  // Moore refinement on the dense table (15 symbols), then the states renumbered
  // breadth-first from the start with each row's moves as character ranges:
  // the same DFA as minimize() (range_dfa.cc) gives for the table as ranges,
  // without building range rows and string signatures each round.
  const std::size_t n = trans_.size();
  std::vector<std::vector<std::int32_t>> back(n);
  for (std::size_t s = 0; s < n; ++s)
    for (std::int32_t t : trans_[s])
      if (t >= 0) back[static_cast<std::size_t>(t)].push_back(static_cast<std::int32_t>(s));
  // Live: reaches an accepting state (every state is reachable from the start).
  const std::vector<bool> live = co_reachable(back, accepting_);
  RangeDfa dfa;
  if (n == 0 || !live[0]) {
    dfa.transitions.emplace_back();
    dfa.accepting.push_back(false);
    return dfa;
  }
  std::vector<std::int32_t> cls(n, -1);
  std::size_t count = 0;
  {
    bool has[2] = {false, false};
    for (std::size_t s = 0; s < n; ++s)
      if (live[s]) {
        cls[s] = accepting_[s] ? 1 : 0;
        has[cls[s]] = true;
      }
    count = static_cast<std::size_t>(has[0]) + static_cast<std::size_t>(has[1]);
  }
  // A state's signature: its class and its targets' classes (-1: none or dead).
  // Each round numbers the distinct signatures in order of first appearance,
  // found through an open-addressing table of representative states (no
  // allocation per round).
  std::vector<std::int32_t> target(n * kSymbols);
  for (std::size_t s = 0; s < n; ++s)
    for (int c = 0; c < kSymbols; ++c) {
      const std::int32_t t = trans_[s][static_cast<std::size_t>(c)];
      target[s * kSymbols + static_cast<std::size_t>(c)] = t >= 0 && live[static_cast<std::size_t>(t)] ? t : -1;
    }
  auto class_of = [&cls](std::int32_t t) { return t >= 0 ? cls[static_cast<std::size_t>(t)] : -1; };
  auto same = [&](std::size_t a, std::size_t b) {
    if (cls[a] != cls[b]) return false;
    for (std::size_t c = 0; c < kSymbols; ++c)
      if (class_of(target[a * kSymbols + c]) != class_of(target[b * kSymbols + c])) return false;
    return true;
  };
  std::size_t slots = 16;
  while (slots < 2 * n) slots *= 2;
  std::vector<std::int32_t> table(slots), next(n, -1);
  while (true) {
    std::fill(table.begin(), table.end(), -1);
    std::size_t found = 0;
    for (std::size_t s = 0; s < n; ++s) {
      if (!live[s]) continue;
      std::uint64_t h = 0xcbf29ce484222325ull ^ static_cast<std::uint32_t>(cls[s]);
      for (std::size_t c = 0; c < kSymbols; ++c)
        h = (h ^ static_cast<std::uint32_t>(class_of(target[s * kSymbols + c]))) * 0x100000001B3ull;
      std::size_t slot = static_cast<std::size_t>(h ^ (h >> 32)) & (slots - 1);
      while (table[slot] >= 0 && !same(static_cast<std::size_t>(table[slot]), s)) slot = (slot + 1) & (slots - 1);
      if (table[slot] < 0) {
        table[slot] = static_cast<std::int32_t>(s);
        next[s] = static_cast<std::int32_t>(found++);
      } else {
        next[s] = next[static_cast<std::size_t>(table[slot])];
      }
    }
    const bool stable = found == count;
    count = found;
    cls.swap(next);
    if (stable) break;
  }
  std::array<int, kSymbols> by_char;  // symbols in character order
  std::iota(by_char.begin(), by_char.end(), 0);
  std::sort(by_char.begin(), by_char.end(), [](int a, int b) { return kChars[a] < kChars[b]; });
  return quotient(cls, count, live, accepting_, [&](std::size_t s, auto&& emit) {
    for (int c : by_char) {
      const std::int32_t t = trans_[s][static_cast<std::size_t>(c)];
      if (t >= 0) emit(kChars[c], kChars[c], t);
    }
  });
}

}  // namespace

std::optional<RangeDfa> number_dfa(const NumberConstraints& constraints) {
  if (constraints.bounds.size() > kMaxBounds)
    throw std::invalid_argument("number_dfa takes at most 4 bounds (one per bound keyword)");
  Builder builder(constraints);
  if (!builder.build()) return std::nullopt;
  return builder.minimal();
}

}  // namespace pse
