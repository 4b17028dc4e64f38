#include "pse_core/state_machine.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "grammar/grammar.h"
#include "pse_core/errors.h"
#include "runtime.h"
#include "support/machine_edits.h"
#include "support/utf8.h"

namespace pse {

namespace {
std::atomic<std::uint64_t> next_uid{1};

/// The leaf classes of live nodes: signature -> id and how many nodes hold it.
/// A class whose last node dies stays known (dormant) while the dormant ones
/// total at most kDormantBytes of signatures, so a schema configured again
/// soon gets its classes back with their mask-cache entries; past that the
/// oldest is forgotten (leaf_class_deaths), and caches may drop its entries.
/// Ids are never reused. Never destroyed: nodes may outlive static
/// destructors at exit.
struct LeafClasses {
  static constexpr std::size_t kDormantBytes = std::size_t{4} << 20;
  struct Class {
    std::uint64_t id;
    std::size_t holders;
    std::uint64_t dormant_since;  ///< 0 while held
  };
  std::mutex mutex;
  std::unordered_map<std::string, Class> by_signature;
  std::unordered_map<std::uint64_t, const std::string*> signature_of;
  std::deque<std::pair<std::uint64_t, std::uint64_t>> dormant;  ///< (id, since), oldest first
  std::size_t dormant_bytes = 0, dormant_classes = 0;  ///< entries of `dormant` not stale
  std::uint64_t last_id = 0, last_since = 0;

  /// Whether `dormant`'s entry is still its class's (not held again since, not forgotten).
  std::unordered_map<std::string, Class>::iterator current(std::uint64_t id, std::uint64_t since) {
    auto of = signature_of.find(id);
    if (of == signature_of.end()) return by_signature.end();
    auto it = by_signature.find(*of->second);
    return it->second.dormant_since == since ? it : by_signature.end();
  }
};

LeafClasses& leaf_classes() {
  static LeafClasses* table = new LeafClasses();
  return *table;
}

void release_leaf_class(std::uint64_t id) {
  if (!id) return;
  LeafClasses& t = leaf_classes();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto of = t.signature_of.find(id);
  if (of == t.signature_of.end()) return;
  LeafClasses::Class& c = t.by_signature.find(*of->second)->second;
  if (--c.holders) return;
  c.dormant_since = ++t.last_since;
  t.dormant.emplace_back(id, c.dormant_since);
  t.dormant_bytes += of->second->size();
  ++t.dormant_classes;
  while (t.dormant_bytes > LeafClasses::kDormantBytes) {
    auto [old, since] = t.dormant.front();
    t.dormant.pop_front();
    auto it = t.current(old, since);
    if (it == t.by_signature.end()) continue;  // held again since
    t.dormant_bytes -= it->first.size();
    --t.dormant_classes;
    t.signature_of.erase(old);
    t.by_signature.erase(it);
    leaf_class_deaths.fetch_add(1, std::memory_order_relaxed);
  }
  if (t.dormant.size() > 2 * t.dormant_classes + 1024)  // drop stale entries
    std::erase_if(t.dormant, [&t](const auto& d) {
      return t.current(d.first, d.second) == t.by_signature.end();
    });
}
}  // namespace

bool leaf_class_alive(std::uint64_t id) {
  LeafClasses& t = leaf_classes();
  std::lock_guard<std::mutex> lock(t.mutex);
  return t.signature_of.count(id) != 0;
}

std::string StateKey::repr() const {
  if (auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  return "'" + std::get<std::string>(value) + "'";
}

bool CharSet::contains(std::uint32_t cp) const {
  return std::binary_search(points.begin(), points.end(), cp);
}

std::size_t CharSet::count_in(std::uint32_t lo, std::uint32_t hi) const {
  auto a = std::lower_bound(points.begin(), points.end(), lo);
  auto b = std::upper_bound(a, points.end(), hi);
  return static_cast<std::size_t>(b - a);
}

CharSet CharSet::from_utf8(const std::string& chars, bool fold_case) {
  CharSet set;
  std::uint32_t st = 0, cp = 0;
  for (unsigned char b : chars) {
    auto r = utf8::feed(st, b, cp);
    if (r == utf8::kInvalid) throw GrammarError("character set is not valid UTF-8");
    if (r == utf8::kComplete) set.points.push_back(fold_case ? utf8::fold_ascii(cp) : cp);
  }
  std::sort(set.points.begin(), set.points.end());
  set.points.erase(std::unique(set.points.begin(), set.points.end()), set.points.end());
  return set;
}

StateMachine::StateMachine(Kind k) : kind(k), uid(next_uid++) {
  if (kind == Kind::kGraph) {
    states.emplace_back();  // state 0, no edges: set_graph() fills it
    state_keys.push_back(StateKey{std::int64_t{0}});
    end_keys.push_back(StateKey{std::string("$")});
    intern_state(end_keys.back());
    states[1].is_end = true;
  }
}

StateMachine::~StateMachine() { release_leaf_class(leaf_class_); }

std::int32_t StateMachine::intern_state(const StateKey& key) {
  if (auto i = find_state(key)) return *i;
  state_keys.push_back(key);
  states.emplace_back();
  return static_cast<std::int32_t>(states.size() - 1);
}

std::optional<std::int32_t> StateMachine::find_state(const StateKey& key) const {
  for (std::size_t i = 0; i < state_keys.size(); ++i)
    if (state_keys[i] == key) return static_cast<std::int32_t>(i);
  return std::nullopt;
}

void StateMachine::set_graph(
    std::vector<std::pair<StateKey, std::vector<std::pair<SMPtr, StateKey>>>> graph,
    const StateKey& start_key, const std::vector<StateKey>& ends) {
  std::vector<StateKey> keys;
  std::vector<GraphState> built;
  auto index = [&](const StateKey& k) {
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == k) return static_cast<std::int32_t>(i);
    keys.push_back(k);
    built.emplace_back();
    return static_cast<std::int32_t>(keys.size() - 1);
  };
  std::vector<bool> defined;
  for (auto& [key, edges] : graph) {
    std::int32_t s = index(key);
    defined.resize(keys.size());
    defined[s] = true;
    for (auto& [machine, target] : edges) {
      if (!machine) throw GrammarError("state " + key.repr() + " has an edge with no machine");
      std::int32_t t = index(target);  // may grow `built`: index before taking a reference
      built[s].edges.push_back(Edge{machine, t});
    }
  }
  std::int32_t start_index = index(start_key);
  for (const StateKey& e : ends) built[index(e)].is_end = true;
  defined.resize(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (defined[i] || built[i].is_end) continue;
    if (static_cast<std::int32_t>(i) == start_index)
      throw GrammarError("start state " + keys[i].repr() +
                         " is neither in state_graph nor an end state");
    throw GrammarError("state_graph references state " + keys[i].repr() +
                       ", which has no transitions and is not an end state");
  }
  state_keys = std::move(keys);
  states = std::move(built);
  start = start_index;
  end_keys = ends;
  invalidate();
}

const StateMachine* StateMachine::ref_next() const {
  if (ref_target) return ref_target.get();
  if (ref_sealed && ref_owner.expired())
    throw GrammarError("RefStateMachine reached after its grammar's root was freed");
  return ref_sealed;
}

const StateMachine* StateMachine::resolve() const {
  const StateMachine* n = this;
  for (int hops = 0; n->kind == Kind::kRef; ++hops) {
    const StateMachine* next = n->ref_next();
    if (!next) throw GrammarError("RefStateMachine used before set_target()");
    if (hops > 1000) throw GrammarError("RefStateMachine cycle with no machine in it");
    n = next;
  }
  return n;
}

std::size_t StateMachine::seal() {
  // Sealed before: add to the same owner (earlier back-edges watch it).
  std::shared_ptr<RefOwner> owner = owned_refs ? owned_refs : std::make_shared<RefOwner>();
  std::unordered_set<const StateMachine*> seen{this}, owned;
  for (const SMPtr& target : owner->targets) owned.insert(target.get());
  std::vector<StateMachine*> todo{this};
  std::size_t sealed = 0;
  auto walk = [&](const SMPtr& node) {
    if (node && seen.insert(node.get()).second) todo.push_back(node.get());
  };
  while (!todo.empty()) {
    StateMachine* node = todo.back();
    todo.pop_back();
    for (const GraphState& state : node->states)
      for (const Edge& edge : state.edges) walk(edge.machine);
    walk(node->child);
    walk(node->separator);
    if (node->owned_refs)
      for (const SMPtr& target : node->owned_refs->targets) walk(target);
    if (node->kind != Kind::kRef || !node->ref_target) continue;
    SMPtr target = std::move(node->ref_target);
    node->ref_target.reset();
    walk(target);
    node->ref_sealed = target.get();
    node->ref_owner = owner;
    if (target.get() != this && owned.insert(target.get()).second)
      owner->targets.push_back(std::move(target));
    ++sealed;
  }
  if (sealed > 0) owned_refs = std::move(owner);
  return sealed;
}

bool StateMachine::nullable() const {
  if (is_optional) return true;
  if (nullable_ == 0 || nullable_ == 1) return nullable_;
  if (nullable_ == 2) return false;  // in progress: a cycle adds nothing
  nullable_ = 2;
  bool result = false;
  switch (kind) {
    case Kind::kGraph: {
      std::vector<std::int32_t> seen{start};
      for (std::size_t i = 0; i < seen.size() && !result; ++i) {
        const GraphState& st = states[seen[i]];
        result = st.is_end;
        for (const Edge& e : st.edges)
          if (std::find(seen.begin(), seen.end(), e.target) == seen.end() &&
              e.machine->resolve()->nullable())
            seen.push_back(e.target);
      }
      break;
    }
    case Kind::kLoop:
      result = min_count == 0;
      break;
    case Kind::kWaitFor:
      result = buffer_length <= 0 && child->resolve()->nullable();
      break;
    case Kind::kRef:
      result = resolve()->nullable();
      break;
    case Kind::kDfa:
      result = start >= 0 && !accepting.empty() && accepting[start];
      break;
    case Kind::kGrammar:
      result = grammar->start_nullable();
      break;
    default:
      break;
  }
  nullable_ = result ? 1 : 0;
  return result;
}

const std::array<std::uint64_t, 4>& StateMachine::first_bytes() const {
  if (first_known_) return first_;
  Arena arena;
  Runtime rt(arena, false);
  Positions start_positions;
  rt.closure(rt.push(nullptr, this, -1), start_positions);
  std::array<std::uint64_t, 4> bits{};
  for (int b = 0; b < 256; ++b)
    for (const Frame* f : start_positions)
      if (rt.step(f, static_cast<std::uint8_t>(b))) {
        bits[b >> 6] |= 1ull << (b & 63);
        break;
      }
  first_ = bits;
  first_known_ = true;
  return first_;
}

void StateMachine::invalidate() {
  if (nullable_ != -1 || first_known_ || leaf_class_)
    machine_edits.fetch_add(1, std::memory_order_relaxed);
  nullable_ = -1;
  first_known_ = false;
  release_leaf_class(leaf_class_);
  leaf_class_ = 0;
  min_len_cache = SIZE_MAX;
}

namespace {

template <class T>
void put(std::string& s, const T& v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof(T));
}

template <class T>
void put_all(std::string& s, const std::vector<T>& v) {
  put(s, v.size());
  s.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

}  // namespace

std::uint64_t StateMachine::leaf_class() const {
  if (leaf_class_) return leaf_class_;
  std::string sig(1, static_cast<char>(kind));
  put(sig, is_case_sensitive);
  switch (kind) {
    case Kind::kPhrase:
      sig += phrase;
      break;
    case Kind::kCharacter:
      put_all(sig, whitelist.points);
      put_all(sig, graylist.points);
      put_all(sig, blacklist.points);
      put(sig, char_min);
      put(sig, char_limit);
      break;
    case Kind::kString:
      put(sig, min_length);
      put(sig, max_length);
      break;
    case Kind::kNumber:
      put(sig, integer_only);
      put(sig, allow_negative);
      break;
    case Kind::kDfa:
      put(sig, start);
      put(sig, classes);
      put(sig, byte_class);
      put_all(sig, transitions);
      put_all(sig, accepting);
      break;
    case Kind::kWaitFor:  // the free-text buffer's behaviour
      put(sig, buffer_length);
      put(sig, strict);
      if (strict) put(sig, child->resolve()->first_bytes());
      break;
    default:
      put(sig, uid);  // not shareable
      break;
  }
  LeafClasses& t = leaf_classes();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (leaf_class_) return leaf_class_;  // another thread got here first
  auto [it, fresh] = t.by_signature.try_emplace(std::move(sig), LeafClasses::Class{0, 0, 0});
  if (fresh) {
    it->second.id = ++t.last_id;
    t.signature_of.emplace(it->second.id, &it->first);
  } else if (it->second.dormant_since) {  // held again
    it->second.dormant_since = 0;
    t.dormant_bytes -= it->first.size();
    --t.dormant_classes;
  }
  ++it->second.holders;
  leaf_class_ = it->second.id;
  return leaf_class_;
}

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::kGraph: return "graph";
    case Kind::kPhrase: return "phrase";
    case Kind::kCharacter: return "character";
    case Kind::kString: return "string";
    case Kind::kNumber: return "number";
    case Kind::kLoop: return "loop";
    case Kind::kWaitFor: return "wait_for";
    case Kind::kRef: return "ref";
    case Kind::kDfa: return "dfa";
    case Kind::kBuffer: return "buffer";
    case Kind::kExternal: return "external";
    case Kind::kGrammar: return "grammar";
    case Kind::kLexer: return "lexer";
  }
  return "?";
}

std::string StateMachine::describe() const {
  std::string s = identifier ? *identifier : kind_name(kind);
  if (kind == Kind::kPhrase) s += "('" + phrase + "')";
  return s;
}

void StateMachine::set_dfa(const std::vector<std::int32_t>& table,
                           std::vector<std::uint8_t> accept, std::int32_t start_state) {
  const std::size_t n = accept.size();
  if (n == 0 || table.size() != n * 256)
    throw GrammarError("a DFA needs states x 256 transitions and one accepting flag per state");
  if (start_state < 0 || static_cast<std::size_t>(start_state) >= n)
    throw GrammarError("DFA start state out of range");
  // Keep only states from which an accepting state is reachable. Edges are
  // listed once per distinct target of a row (most of a row's bytes share a
  // few targets, in runs), checked on the way, and kept as (target, source)
  // pairs bucketed by target.
  const auto count = static_cast<std::int32_t>(n);
  std::vector<std::pair<std::int32_t, std::int32_t>> edges;
  std::vector<std::int32_t> listed(n, -1);  // the last state s listed under target t
  for (std::size_t s = 0; s < n; ++s) {
    const std::int32_t* row = table.data() + s * 256;
    std::int32_t last = -1;
    for (int b = 0; b < 256; ++b) {
      const std::int32_t t = row[b];
      if (t == last) continue;
      if (t < -1 || t >= count) throw GrammarError("DFA transition out of range");
      last = t;
      if (t >= 0 && listed[t] != static_cast<std::int32_t>(s)) {
        listed[t] = static_cast<std::int32_t>(s);
        edges.emplace_back(t, static_cast<std::int32_t>(s));
      }
    }
  }
  std::vector<std::int32_t> begin(n + 1, 0), into(edges.size());
  for (const auto& e : edges) ++begin[static_cast<std::size_t>(e.first) + 1];
  for (std::size_t t = 0; t < n; ++t) begin[t + 1] += begin[t];
  {
    std::vector<std::int32_t> fill(begin.begin(), begin.end() - 1);
    for (const auto& e : edges) into[static_cast<std::size_t>(fill[e.first]++)] = e.second;
  }
  std::vector<std::uint8_t> live(n, 0);
  std::vector<std::int32_t> work;
  for (std::size_t s = 0; s < n; ++s)
    if (accept[s]) {
      live[s] = 1;
      work.push_back(static_cast<std::int32_t>(s));
    }
  std::size_t alive = work.size();
  while (!work.empty()) {
    const auto t = static_cast<std::size_t>(work.back());
    work.pop_back();
    for (std::int32_t i = begin[t]; i < begin[t + 1]; ++i)
      if (const std::int32_t s = into[static_cast<std::size_t>(i)]; !live[s]) {
        live[s] = 1;
        ++alive;
        work.push_back(s);
      }
  }
  // The table with moves into dead states removed (a copy only when some state is dead).
  std::vector<std::int32_t> pruned;
  const std::int32_t* cells = table.data();
  if (alive < n) {
    pruned.resize(table.size());
    for (std::size_t i = 0; i < table.size(); ++i) {
      const std::int32_t t = table[i];
      pruned[i] = t >= 0 && live[t] ? t : -1;
    }
    cells = pruned.data();
  }
  // Byte classes: bytes whose columns agree share a class, numbered in the
  // order of their first byte. A column can only differ from the one before
  // where some row changes target, so the bytes split first into segments of
  // equal columns; segments are then compared column by column (a hash first).
  std::array<std::uint8_t, 256> cut{};
  for (std::size_t s = 0; s < n; ++s) {
    const std::int32_t* row = cells + s * 256;
    for (int b = 1; b < 256; ++b) cut[b] |= static_cast<std::uint8_t>(row[b] != row[b - 1]);
  }
  std::array<int, 256> seg_first{};  // each segment's first byte
  std::size_t segments = 0;
  for (int b = 0; b < 256; ++b)
    if (b == 0 || cut[b]) seg_first[segments++] = b;
  std::array<std::uint64_t, 256> hash{};
  for (std::size_t s = 0; s < n; ++s) {
    const std::int32_t* row = cells + s * 256;
    for (std::size_t k = 0; k < segments; ++k)
      hash[k] = (hash[k] ^ static_cast<std::uint32_t>(row[seg_first[k]])) * 0x100000001B3ull;
  }
  std::array<int, 256> first{};  // each class's first byte
  std::array<std::size_t, 256> first_seg{};  // and its first segment
  classes = 0;
  for (std::size_t k = 0; k < segments; ++k) {
    std::uint32_t c = 0;
    for (; c < classes; ++c) {
      if (hash[first_seg[c]] != hash[k]) continue;
      const int a = first[c], b = seg_first[k];
      std::size_t s = 0;
      while (s < n && cells[s * 256 + a] == cells[s * 256 + b]) ++s;
      if (s == n) break;
    }
    if (c == classes) {
      first[classes] = seg_first[k];
      first_seg[classes++] = k;
    }
    const int end = k + 1 < segments ? seg_first[k + 1] : 256;
    for (int b = seg_first[k]; b < end; ++b) byte_class[b] = static_cast<std::uint8_t>(c);
  }
  transitions.resize(n * classes);
  for (std::size_t s = 0; s < n; ++s)
    for (std::size_t c = 0; c < classes; ++c) transitions[s * classes + c] = cells[s * 256 + first[c]];
  accepting = std::move(accept);
  start = live[start_state] ? start_state : -1;
  invalidate();
}

SMPtr make_phrase(const std::string& text) {
  if (text.empty()) throw GrammarError("PhraseStateMachine needs a non-empty phrase");
  auto sm = std::make_shared<StateMachine>(Kind::kPhrase);
  sm->phrase = text;
  return sm;
}

}  // namespace pse
