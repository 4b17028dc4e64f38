// StateMachine: one node of a grammar. The node kinds form a closed set; the
// runtime (runtime.cc) dispatches on `kind` with one switch, never a virtual
// call per byte.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace pse {

class StateMachine;
class ExternalNode;
namespace grammar {
class Grammar;
}
using SMPtr = std::shared_ptr<StateMachine>;

/// \brief A state id as users write it: an integer or a string ("$").
struct StateKey {
  std::variant<std::int64_t, std::string> value;
  bool operator==(const StateKey& other) const { return value == other.value; }
  std::string repr() const;
};

/// \brief The closed set of node kinds.
enum class Kind : std::uint8_t {
  kGraph,      ///< generic state graph; edges are nested machines
  kPhrase,     ///< an exact string
  kCharacter,  ///< a run of characters from a set
  kString,     ///< a JSON string literal
  kNumber,     ///< a JSON number
  kLoop,       ///< repetitions of one machine, with optional separator
  kWaitFor,    ///< free text, then one machine
  kRef,        ///< forward reference (recursion)
  kDfa,        ///< a byte-level automaton (regex patterns, formats, bounded numbers)
  kBuffer,     ///< internal: the free-text part of a WaitFor (frames only)
  kExternal,   ///< internal: a machine stepped by an ExternalNode (frames only)
  kGrammar,    ///< a context-free grammar (Earley parser over lexer automata)
  kLexer,      ///< internal: the current lexeme of a kGrammar (frames only)
};

/// \brief A set of Unicode code points, with the UTF-8 prefixes of its members
/// so that a byte-level walk can reject an impossible lead byte at once.
struct CharSet {
  std::vector<std::uint32_t> points;  // sorted, unique
  bool contains(std::uint32_t cp) const;
  /// Number of members in [lo, hi].
  std::size_t count_in(std::uint32_t lo, std::uint32_t hi) const;
  bool empty() const { return points.empty(); }
  static CharSet from_utf8(const std::string& chars, bool fold_case);
};

/// \brief An edge of a graph: traverse `machine`, then move to `target`.
struct Edge {
  SMPtr machine;
  std::int32_t target;  // dense state index
};

struct GraphState {
  std::vector<Edge> edges;
  bool is_end = false;
};

/// \brief The targets of the recursive references of a sealed grammar, owned
/// by its root (see StateMachine::seal).
struct RefOwner {
  std::vector<SMPtr> targets;
};

/// \brief A grammar node. Composite kinds reference children by shared_ptr;
/// recursion goes through kRef nodes (see `ref_target` and seal()).
class StateMachine : public std::enable_shared_from_this<StateMachine> {
 public:
  explicit StateMachine(Kind kind);
  virtual ~StateMachine();

  Kind kind;
  bool is_optional = false;
  bool is_case_sensitive = true;
  std::optional<std::string> identifier;
  const std::uint64_t uid;  ///< unique per node, keys the mask cache

  // kGraph
  std::vector<StateKey> state_keys;  ///< dense index -> user state id
  std::vector<GraphState> states;
  std::int32_t start = 0;
  std::vector<StateKey> end_keys;  ///< as given by the user (may name unused states)

  // kPhrase
  std::string phrase;

  // kCharacter
  CharSet whitelist, graylist, blacklist;
  std::uint32_t char_min = 0, char_limit = 0;  ///< limit 0: unlimited

  // kString
  std::uint32_t min_length = 0, max_length = UINT32_MAX;

  // kNumber
  bool integer_only = false, allow_negative = true;

  // kLoop, kWaitFor: `child`; kLoop: `separator`
  SMPtr child, separator;
  std::uint32_t min_count = 1, max_count = UINT32_MAX;
  std::int32_t buffer_length = -1;
  bool strict = false;

  // kDfa: transitions[state * classes + byte_class[b]] (-1: reject).
  std::array<std::uint8_t, 256> byte_class{};
  std::uint32_t classes = 0;
  std::vector<std::int32_t> transitions;
  std::vector<std::uint8_t> accepting;
  /// Install a DFA given as a dense [states x 256] table; prunes states that
  /// cannot reach an accepting state and compresses bytes into classes.
  void set_dfa(const std::vector<std::int32_t>& table, std::vector<std::uint8_t> accept,
               std::int32_t start_state);

  // kRef: a strong reference until the grammar is sealed. A recursive grammar
  // is then a reference cycle; seal() breaks it: the root takes the targets
  // into `owned_refs` and each reference keeps only a back-edge (`ref_sealed`)
  // plus a weak handle (`ref_owner`) that says whether the root is still alive.
  SMPtr ref_target;
  const StateMachine* ref_sealed = nullptr;
  std::weak_ptr<const RefOwner> ref_owner;
  /// The reference's target, strong or sealed (nullptr: not set).
  const StateMachine* ref_next() const;

  /// Set by seal() on a grammar's root: the targets of its recursive references.
  std::shared_ptr<RefOwner> owned_refs;
  /// Break the reference cycles of the grammar rooted here so that it is freed
  /// with its root: every kRef below (not already sealed) becomes a back-edge
  /// and its target is owned by this node. The grammar must not change after;
  /// its nodes are valid while this root lives (a sealed reference reached
  /// after that raises GrammarError). Returns the number of references sealed.
  std::size_t seal();

  /// Set by the bindings when a Python subclass overrides stepping behaviour.
  std::shared_ptr<ExternalNode> external;

  // kGrammar: the compiled grammar (immutable; parse state lives in frames).
  std::shared_ptr<const grammar::Grammar> grammar;

  // ----- graph construction -----
  /// Index of a state key, adding it when absent.
  std::int32_t intern_state(const StateKey& key);
  std::optional<std::int32_t> find_state(const StateKey& key) const;
  /// Replace the graph. Validates it (GrammarError on a dangling state).
  void set_graph(std::vector<std::pair<StateKey, std::vector<std::pair<SMPtr, StateKey>>>> graph,
                 const StateKey& start_key,
                 const std::vector<StateKey>& end_keys);
  /// Follow kRef links to the node that does the work.
  const StateMachine* resolve() const;

  // ----- derived facts (cached; reset by invalidate()) -----
  /// Can a parent skip this machine without consuming anything?
  bool nullable() const;
  /// Bytes this machine can start with (when entered fresh).
  const std::array<std::uint64_t, 4>& first_bytes() const;
  void invalidate();
  /// Identifies what a leaf matches: equal for leaves with equal parameters,
  /// so that every grammar shares their mask-cache entries.
  std::uint64_t leaf_class() const;

  std::string describe() const;

 private:
  mutable std::int8_t nullable_ = -1;  // -1 unknown, 2 in progress
  mutable bool first_known_ = false;
  mutable std::array<std::uint64_t, 4> first_{};
  mutable std::uint64_t leaf_class_ = 0;

 public:
  /// Filled by completion.cc: shortest match length (SIZE_MAX: not solved yet)
  /// and, for leaves, its bytes.
  mutable std::size_t min_len_cache = SIZE_MAX;
  mutable std::string min_leaf_cache;
};

/// Factories for the leaf kinds; they validate their arguments.
SMPtr make_phrase(const std::string& phrase);
const char* kind_name(Kind kind);

}  // namespace pse
