// A compiled context-free grammar: one byte automaton per terminal, an Earley
// parser over the terminals, and an optional lexer hook ("python": NEWLINE /
// INDENT / DEDENT; "bash": heredoc bodies, backslash-newlines).
//
// The grammar itself is immutable once compiled. What changes while text is
// read lives in two kinds of values, both shared and never mutated:
//   * ParseState: an Earley set (with its predecessors) plus the hook's context;
//     a grammar frame points to one.
//   * a lexer configuration id: the (terminal, automaton state) pairs still
//     alive inside the current lexeme; a lexer leaf frame holds one.
// Configurations are interned lazily (a lazily determinised union of the
// terminal automata, restricted to what the parser expects), so the mask cache
// can key on them; Earley steps are memoised per set and terminal list.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "pse_core/limits.h"

namespace pse::grammar {

enum class Hook : std::uint8_t { kNone, kPython, kBash };

/// What a terminal is to the lexer.
enum class TermRole : std::uint8_t {
  kNormal,        ///< a grammar terminal
  kIgnore,        ///< %ignore'd: lexed and dropped
  kDeclared,      ///< %declare'd: produced by the lexer hook only
  kNewline,       ///< python hook: a physical newline
  kContinuation,  ///< python hook: backslash-newline
  kHeredoc,       ///< bash hook: the body of a heredoc (one terminal per delimiter)
};

struct Terminal {
  std::string name;
  std::vector<std::int32_t> table;  ///< [states x 256] next state, -1: none
  std::vector<std::uint8_t> accepting;
  std::int32_t priority = 0;
  bool literal = false;   ///< a string terminal: wins ties against regexes
  TermRole role = TermRole::kNormal;
  std::int8_t bracket = 0;  ///< +1 for "(" "[" "{", -1 for ")" "]" "}"
  /// python: +1 for a terminal that opens an f-string's replacement fields
  /// (FSTRING_*_OPEN), -1 for one that ends the f-string (FSTRING_*_CLOSE);
  /// +2 and -2 for the one-line (not triple-quoted) ones.
  std::int8_t fstring = 0;
  bool comment = false;  ///< python: an %ignore'd terminal that starts with "#"
  std::int32_t rank() const { return priority * 2 + (literal ? 1 : 0); }
};

/// A production; symbols >= 0 are terminals, < 0 are nonterminals (~id).
struct Rule {
  std::int32_t lhs;
  std::vector<std::int32_t> rhs;
};

/// A short list: its first N elements inline, the rest in a vector, so that
/// the usual few cost no allocation (parse states and Earley sets are made per
/// parser step).
template <class T, std::size_t N>
class InlineList {
 public:
  InlineList() = default;
  explicit InlineList(T first) { push_back(std::move(first)); }
  std::size_t size() const { return size_; }
  const T& operator[](std::size_t i) const { return i < N ? inline_[i] : more_[i - N]; }
  T& operator[](std::size_t i) { return i < N ? inline_[i] : more_[i - N]; }
  const T& back() const { return (*this)[size_ - 1]; }
  void push_back(T v) {
    if (size_ < N) inline_[size_] = std::move(v);
    else more_.push_back(std::move(v));
    ++size_;
  }
  void pop_back() {
    if (--size_ >= N) more_.pop_back();
    else inline_[size_] = T{};
  }
  bool operator==(const InlineList& o) const {
    if (size_ != o.size_) return false;
    for (std::size_t i = 0; i < size_; ++i)
      if (!((*this)[i] == o[i])) return false;
    return true;
  }

 private:
  std::array<T, N> inline_{};
  std::size_t size_ = 0;
  std::vector<T> more_;
};

/// Freed blocks kept for reuse by each thread, for the allocations made and
/// dropped by the hundred per mask (parse states, Earley sets, their item
/// lists): power-of-two size classes from 64 bytes to 16 KiB, up to 4,096
/// blocks or 1 MiB per class (malloc's own per-thread cache keeps 7 per size,
/// and its slow path dominated a mask). A block freed on another thread joins
/// that thread's lists; larger blocks go to operator new.
struct BlockPool {
  static constexpr unsigned kMinClass = 6, kMaxClass = 14;
  static constexpr std::size_t kKept = 4096, kKeptBytes = std::size_t{1} << 20;
  static void* get(std::size_t bytes) {
    const unsigned c = size_class(bytes);
    if (Lists* lists = c <= kMaxClass ? mine() : nullptr) {
      std::vector<void*>& free = lists->kept[c - kMinClass];
      if (!free.empty()) {
        void* p = free.back();
        free.pop_back();
        return p;
      }
    }
    return ::operator new(c <= kMaxClass ? std::size_t{1} << c : bytes);
  }
  static void put(void* p, std::size_t bytes) {
    const unsigned c = size_class(bytes);
    if (Lists* lists = c <= kMaxClass ? mine() : nullptr) {
      std::vector<void*>& free = lists->kept[c - kMinClass];
      if (free.size() < std::min(kKept, kKeptBytes >> c)) {
        free.push_back(p);
        return;
      }
    }
    ::operator delete(p);
  }

 private:
  static unsigned size_class(std::size_t bytes) {
    return bytes <= (std::size_t{1} << kMinClass) ? kMinClass
                                                  : static_cast<unsigned>(std::bit_width(bytes - 1));
  }
  struct Lists {
    std::array<std::vector<void*>, kMaxClass - kMinClass + 1> kept;
  };
  /// This thread's lists: one thread-local look-up per get or put (a shared
  /// library pays a call for each), of a trivially destructible record, so
  /// that it is readable until the thread ends. Null before the first use and
  /// after the thread's exit has freed them (a block released later in the
  /// exit goes to ::operator delete).
  struct Mine {
    Lists* lists = nullptr;
    bool gone = false;
  };
  static Mine& record() {
    thread_local Mine m;
    return m;
  }
  static Lists* mine() {
    Mine& m = record();
    if (!m.lists && !m.gone) m.lists = make();
    return m.lists;
  }
  /// The thread's lists, freed with the blocks they keep when the thread ends.
  static Lists* make() {
    struct Owner {
      Lists lists;
      ~Owner() {
        Mine& m = record();
        m.lists = nullptr;
        m.gone = true;
        for (auto& list : lists.kept)
          for (void* p : list) ::operator delete(p);
      }
    };
    thread_local Owner owner;
    return &owner.lists;
  }
};

/// An allocator over BlockPool.
template <class T>
struct Recycled {
  using value_type = T;
  Recycled() = default;
  template <class U>
  Recycled(const Recycled<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(BlockPool::get(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) { BlockPool::put(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const Recycled<U>&) const { return true; }
};

/// The lock of a set's or a state's memo, held for a few instructions per
/// parser step: one atomic exchange to take, where a std::mutex costs two
/// calls into pthread (and 40 bytes in every set and state).
class SpinLock {
 public:
  void lock() {
    while (locked_.exchange(true, std::memory_order_acquire))
      while (locked_.load(std::memory_order_relaxed)) std::this_thread::yield();
  }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

struct EarleySet;
using SetPtr = std::shared_ptr<const EarleySet>;

/// The items an Earley set predicts from its seeds (grammar.cc EarleyBuilder):
/// (rule, dot) pairs whose origin is the set itself.
struct Prediction {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> items;
  std::vector<std::pair<std::int32_t, std::uint32_t>> waiting;  ///< (nonterminal, index in items), sorted
  std::vector<std::pair<std::uint16_t, std::uint32_t>> scans;   ///< (terminal, index in items), sorted
  std::span<const std::uint16_t> expected;                      ///< terminals, sorted (interned)
  std::int32_t expected_id = -1;                                ///< `expected`'s id
  bool complete = false;                                        ///< the start rule completes here
};

struct Item {
  std::uint32_t rule, dot;
  const EarleySet* origin;
};

/// One Earley set. Items point to their origin sets, which are this set's
/// ancestors: `prev` keeps them alive.
struct EarleySet {
  EarleySet() = default;
  EarleySet(const EarleySet&) = delete;
  EarleySet& operator=(const EarleySet&) = delete;
  ~EarleySet();
  /// The kernel: items begun in earlier sets (scanned, completed, or advanced
  /// over a nullable nonterminal). Items [0, kernel.size()) are these; the
  /// others are `predicted`'s, shared by every set with the same seeds.
  std::vector<Item, Recycled<Item>> kernel;
  std::shared_ptr<const Prediction> predicted;
  std::size_t size() const { return kernel.size() + predicted->items.size(); }
  Item item(std::size_t i) const {
    if (i < kernel.size()) return kernel[i];
    const auto [rule, dot] = predicted->items[i - kernel.size()];
    return Item{rule, dot, this};
  }
  /// (nonterminal, item index) for the kernel items whose next symbol is that
  /// nonterminal, sorted; the predicted ones are `predicted->waiting` (not
  /// copied into every set).
  std::vector<std::pair<std::int32_t, std::uint32_t>, Recycled<std::pair<std::int32_t, std::uint32_t>>> waiting;
  /// Calls f(item index) for the items waiting on nonterminal `nt`: completion looks them up.
  template <class F>
  void each_waiting(std::int32_t nt, F&& f) const {
    auto from = [&](const auto& list, std::uint32_t first) {
      for (auto at = std::lower_bound(list.begin(), list.end(), std::pair<std::int32_t, std::uint32_t>{nt, 0});
           at != list.end() && at->first == nt; ++at)
        f(first + at->second);
    };
    from(waiting, 0);
    from(predicted->waiting, static_cast<std::uint32_t>(kernel.size()));
  }
  /// Every (nonterminal, item index) pair of both lists, sorted.
  std::vector<std::pair<std::int32_t, std::uint32_t>> all_waiting() const;
  /// Terminals some item expects next, sorted; interned (held by the grammar).
  std::span<const std::uint16_t> expected;
  std::int32_t expected_id = -1;  ///< `expected`'s id
  bool complete = false;          ///< the start symbol spans everything so far
  mutable SetPtr prev;            ///< mutable only for iterative destruction
  /// Memo of scans: terminal list (Grammar::scan_key) -> the next set (weak: no cycles).
  mutable SpinLock memo_lock;
  mutable InlineList<std::pair<std::uint64_t, std::weak_ptr<const EarleySet>>, 2> memo;
  /// Completion bounds (grammar_completion.cc), set once under memo_lock:
  /// per nonterminal some item here waits for, the fewest bytes that end the
  /// parse once it completes (sorted), and `bound`, the fewest bytes that end
  /// the parse from here; both count terminals by their shortest texts.
  mutable std::vector<std::pair<std::int32_t, std::uint32_t>> done;
  mutable std::uint32_t bound = 0;
  mutable std::atomic<bool> bounded{false};
  /// Grammar::set_shape() answers (under memo_lock), made for the few sets a
  /// stepper stands on, so held out of line (a set is made per parser step).
  struct Shapes {
    std::uint64_t end = 0;  ///< as the end of a parse
    InlineList<std::pair<std::int32_t, std::uint64_t>, 2> origin;  ///< per nonterminal, as an origin
  };
  mutable std::unique_ptr<Shapes> shapes;
};

/// bash heredoc flags: `<<-` (leading tabs stripped), a quoted delimiter word
/// (the body is read raw; unquoted, a backslash-newline joins two lines).
constexpr std::uint8_t kHeredocDash = 1, kHeredocQuoted = 2;

/// Context of the lexer hooks.
struct HookState {
  /// python: indentation levels, measured with tab stops of 8 (`indents`, `col`)
  /// and of 1 (`alt_indents`, `altcol`); CPython's TabError when they disagree.
  InlineList<std::uint32_t, 8> indents{0}, alt_indents{0};
  std::uint32_t col = 0, altcol = 0;
  bool continued = false;      ///< python: the last lexeme was a backslash-newline
  std::int32_t depth = 0;      ///< open brackets
  /// python: f-strings whose replacement fields are open, plus kOneLineField
  /// for each of them that is not triple-quoted (a newline ends that one).
  std::int32_t fields = 0;
  static constexpr std::int32_t kOneLineField = 1 << 16;
  bool line_start = true;      ///< nothing but blanks/comments on this line yet
  bool line_tokens = false;    ///< a real token on this logical line
  /// bash: heredoc (delimiter, kHeredoc* flags) pairs whose bodies are due.
  std::vector<std::pair<std::string, std::uint8_t>> heredocs;
  bool bodies = false;  ///< bash: a newline passed; the next lexemes are the bodies
};

/// What a grammar frame holds.
struct ParseState : std::enable_shared_from_this<ParseState> {
  ParseState() = default;
  explicit ParseState(HookState h) : hook(std::move(h)) {}
  SetPtr set;        ///< null: no parse continues
  SetPtr effective;  ///< python at a line start: `set` after INDENT/DEDENTs for `col`
  HookState hook;
  mutable std::atomic<std::int8_t> finish{-1};  ///< cached can_finish()
  /// The last start_config() answer: (the previous lexeme's `extends_id` * 4 + `glue` + 1)
  /// << 32 | (config + 1); 0: none.
  mutable std::atomic<std::uint64_t> last_start{0};
  /// finish_lexeme() answers (weak: alive while a mask or a stepper holds
  /// them), keyed by `accepted_id` for plain lexemes, by (configuration, hook
  /// value) for the others.
  mutable SpinLock next_lock;
  struct Next {
    std::uint64_t key, local;
    std::weak_ptr<const ParseState> state;
  };
  mutable InlineList<Next, 2> next;
  mutable std::atomic<std::uint64_t> shape{0};  ///< Grammar::shape(), 0 until asked
};
using StatePtr = std::shared_ptr<const ParseState>;

/// Marks a shadow item of a lexer configuration: a terminal that only decides
/// where the lexeme may end (maximal munch), never its type (python: NAME after
/// a keyword, so that `inside` is never `in` + `side`).
constexpr std::uint16_t kShadow = 0x8000;

/// A lexer configuration: the terminals still alive in the current lexeme.
struct LexConfig {
  std::vector<std::pair<std::uint16_t, std::int32_t>> items;  ///< (terminal | kShadow?, state), sorted
  std::array<std::uint64_t, 4> forbid{};  ///< first bytes that would extend the previous lexeme
  bool fresh = true;                      ///< no byte read yet
  bool accepting = false;
  bool ignored = false;                   ///< the finished lexeme is dropped
  bool capture = false;                   ///< bash: a heredoc start is still possible
  /// python: an ignored or continuation terminal is alive: the lexeme may end
  /// ignored at a line start, where its column sets the indentation (else the
  /// column is not tracked, so that a string begun at a line start keys one
  /// lexer state for all its bytes, not one per column).
  bool tracks = false;
  std::int32_t home = -1;                 ///< where an ignored lexeme restarts (-1: it pops)
  /// Bytes that would extend this lexeme (shadows and an absorbed restart
  /// included): what the next lexeme may not start with; interned as `extends_id`.
  std::array<std::uint64_t, 4> extends{};
  std::int32_t extends_id = 0;
  std::vector<std::uint16_t> accepted;    ///< top-rank terminals of the finished lexeme
  std::int32_t accepted_id = -1;          ///< `accepted`, interned
  bool plain = false;  ///< a real lexeme whose effect depends on `accepted` alone (no heredoc)
  /// What may follow the finished lexeme directly (nothing between). python: a
  /// number (1), or a decimal one that an `e` would take into an exponent
  /// without digits yet (2): CPython then ends the number before the `e`
  /// (`1else`). bash: the `;` operator (bit 0), which bash reads with a `&` or `;`
  /// after it as one operator (`;&`, `;;`) wherever it is; bit 1, a backslash
  /// continues the lexeme other than as a line continuation (else one may start the next).
  std::uint8_t glue = 0;
  std::array<std::atomic<std::int32_t>, 256> next;  ///< -2 unknown, -1 none
  LexConfig();
};

/// bash: the heredoc delimiter words read so far, interned as the nodes of a
/// trie (0: the empty word). A mask walk inside a heredoc start asks for a
/// child per trie edge of the vocabulary, so looking one up takes no lock: the
/// slots are atomic, new nodes are added under a mutex, and a table that grows
/// is replaced whole (readers may still probe the old one: it is kept).
class WordTrie {
 public:
  static constexpr std::uint32_t kMaxNodes = limits::kMaxLexerStates * 16;
  WordTrie();
  /// The word `parent` + `b`, added if new.
  std::uint32_t child(std::uint32_t parent, std::uint8_t b);
  std::string word(std::uint32_t node) const;
  std::uint32_t length(std::uint32_t node) const;

 private:
  /// Open addressing; a slot holds (parent << 8 | byte) << 32 | child, 0: free.
  struct Table {
    explicit Table(std::size_t size) : mask(size - 1), slots(new std::atomic<std::uint64_t>[size]()) {}
    std::size_t mask;
    std::unique_ptr<std::atomic<std::uint64_t>[]> slots;
  };
  static std::uint32_t find(const Table& t, std::uint32_t edge);
  static void put(Table& t, std::uint64_t slot);
  static constexpr std::uint32_t kChunkBits = 16, kChunkSize = 1u << kChunkBits;
  std::uint32_t edge(std::uint32_t node) const { return edges_[node >> kChunkBits][node & (kChunkSize - 1)]; }
  std::atomic<Table*> table_;
  std::vector<std::unique_ptr<Table>> tables_;  ///< the current one last
  /// Per node, its edge (parent << 8 | byte), in chunks that never move.
  std::array<std::unique_ptr<std::uint32_t[]>, (kMaxNodes >> kChunkBits)> edges_;
  std::uint32_t count_ = 1;
  std::mutex mutex_;  ///< guards adding
};

class Grammar {
 public:
  Grammar(std::vector<Terminal> terminals, std::vector<Rule> rules, std::int32_t start,
          std::int32_t nonterminals, std::vector<std::string> nonterminal_names, Hook hook);
  Grammar(const Grammar&) = delete;
  Grammar& operator=(const Grammar&) = delete;

  /// The state before any text.
  StatePtr initial() const;
  /// The lexer configuration a fresh lexeme starts in (after a lexeme that
  /// ended in configuration `prev`, -1: none); -1 when nothing can be lexed.
  std::int32_t start_config(const ParseState& ps, std::int32_t prev) const;
  /// Lexer column tracking value for a fresh lexeme (python at a line start).
  std::uint64_t start_local(const ParseState& ps) const;
  /// The state after the lexeme that ended in configuration `cfg`; null state->set: dead.
  StatePtr finish_lexeme(const ParseState& ps, std::int32_t cfg, std::uint64_t local) const;
  /// Can the text end here (hook tokens for the end of input included)?
  bool can_finish(const ParseState& ps) const;
  bool start_nullable() const;

  /// Lexer step: the next configuration on byte b (false: no lexeme continues).
  inline bool lex_step(std::int32_t& cfg, std::uint64_t& local, std::uint8_t b) const {
    const LexConfig& c = config(cfg);
    if (c.fresh && (c.forbid[b >> 6] >> (b & 63) & 1)) return false;
    std::int32_t n = c.next[b].load(std::memory_order_acquire);
    if (n == -2) n = compute_next(cfg, b);
    if (n < 0) return false;
    cfg = n;
    if (local >> 62) local = hook_local(local, n, b);
    return true;
  }
  inline bool lex_accepting(std::int32_t cfg) const { return config(cfg).accepting; }
  /// May the lexeme at configuration `cfg` take another byte? (`extends` holds every byte lex_step takes.)
  inline bool lex_moves(std::int32_t cfg) const {
    const auto& e = config(cfg).extends;
    return (e[0] | e[1] | e[2] | e[3]) != 0;
  }
  /// Does byte `b` go on with the lexeme that may end at configuration `cfg`, so that it may
  /// not end before `b` (maximal munch)? When lex_step takes `b`, except a backslash the bash
  /// hook takes only as the start of a line continuation (a lexeme may start with `\c`).
  inline bool munches(std::int32_t cfg, std::uint8_t b) const {
    std::uint64_t local = 0;
    if (b == '\\' && hook_ == Hook::kBash && !(config(cfg).glue & 2)) return false;
    return lex_step(cfg, local, b);
  }

  /// The shortest bytes that take the parse at `ps`, inside the lexeme at lexer
  /// configuration `cfg` (fresh or not; -1: none) with hook value `local`, to
  /// a point where the text may end (hook tokens, maximal munch and the parser
  /// respected: the text so far plus the answer validates). `need_byte`: at
  /// least one byte. `alphabet` (bit b of word b / 64): only those bytes.
  /// nullopt when no completion exists or none is found within the search
  /// limits (kMaxNodes in grammar_completion.cc); never a wrong answer.
  std::optional<std::string> shortest_completion(const StatePtr& ps, std::int32_t cfg,
                                                 std::uint64_t local, bool need_byte,
                                                 const std::array<std::uint64_t, 4>* alphabet) const;

  /// The shape of `ps`: equal for two states that every text takes alike, as
  /// far as their structure shows, so that a mask computed at one holds at the
  /// other (MaskMemo). It spells the hooks' context and the open items of the
  /// end set, each with its origin's shape as seen from it: that origin's
  /// items waiting on what can still complete there, recursively (completed
  /// items, and items no text can reach again, play no further part: after
  /// `echo a; echo b`, the first command's items are gone; a view whose only
  /// item waits on its last symbol is that item's origin's view, so `- - x`
  /// nests no deeper than `- x`). Ids are never reused (a table past
  /// kMaxShapes starts over: the same structure may then get a second id).
  std::uint64_t shape(const ParseState& ps) const;

  /// Validate a whole text: strict (a complete sentence) or a viable prefix.
  bool validate(std::string_view text, bool strict) const;

  const std::vector<Terminal>& terminals() const { return terminals_; }
  std::size_t config_count() const { return config_count_.load(); }

 private:
  friend struct EarleyBuilder;
  friend class CompletionSearch;
  const LexConfig& config(std::int32_t id) const {
    return chunks_[static_cast<std::uint32_t>(id) >> kChunkBits]
        .load(std::memory_order_acquire)[static_cast<std::uint32_t>(id) & (kChunkSize - 1)];
  }
  std::int32_t compute_next(std::int32_t cfg, std::uint8_t b) const;
  std::int32_t lookup_start(const ParseState& ps, std::int32_t prev) const;
  /// `home`: the fresh configuration an ignored lexeme returns to (kSelf: this one).
  std::int32_t intern(std::vector<std::pair<std::uint16_t, std::int32_t>> items,
                      const std::array<std::uint64_t, 4>& forbid, bool fresh, std::int32_t home) const;
  static constexpr std::int32_t kSelf = -2;
  /// Lexer `local` of the hooks: bit 63, the python column (bits 0-31, tab
  /// stops of 8; bits 32-61, tab stops of 1); bit 62, the bash heredoc
  /// delimiter being read (bits 0-31 its node in `delimiters_`, 0: none
  /// yet; bit 60 `<<-`, bit 61 inside '...', bit 59 inside "...", bit 58 the
  /// word has quotes or backslashes, bit 57 after a backslash, bit 56 after a blank).
  std::uint64_t hook_local(std::uint64_t local, std::int32_t cfg, std::uint8_t b) const;
  /// The terminal of the heredoc body ending at `delimiter` (kHeredoc* flags), made on first use.
  std::uint16_t heredoc_terminal(const std::string& delimiter, std::uint8_t flags) const;
  static bool is_token(TermRole role) { return role == TermRole::kNormal || role == TermRole::kHeredoc; }
  /// A sorted terminal list, interned: its id and its lasting copy.
  std::pair<std::int32_t, std::span<const std::uint16_t>> intern_expected(
      const std::vector<std::uint16_t>& terms) const;
  /// The predictions of an Earley set whose kernel waits on `seeds` (sorted), made once.
  std::shared_ptr<const Prediction> prediction(const std::vector<std::int32_t>& seeds) const;
  /// Add `rules` (nonterminals below `count`) to rules_, alternatives of a
  /// nonterminal that begin alike sharing their prefix; returns the count of
  /// nonterminals with those it made.
  std::int32_t left_factor(const std::vector<Rule>& rules, std::int32_t count);
  /// python: NAME shadows the literal terminals whose texts a NAME can go on from.
  void bound_keywords(std::int32_t name);
  SetPtr initial_set() const;
  /// The shape of `set` seen from later sets: its items that can still take
  /// part once nonterminal `nt` completes there (-1: `set` ends the parse).
  std::uint64_t set_shape(const EarleySet& set, std::int32_t nt) const;
  std::uint64_t known_shape(const EarleySet& set, std::int32_t nt) const;  ///< 0: not yet
  /// The id of `key` in `shapes_`, made if new.
  std::uint64_t intern_shape(const std::string& key) const;
  SetPtr scan(const SetPtr& set, const std::vector<std::uint16_t>& terms) const;
  /// A terminal list as one number: up to four terminals packed (15 bits each, the count
  /// in bits 60-62), a longer list by its interned id (bit 63).
  std::uint64_t scan_key(const std::vector<std::uint16_t>& terms) const;
  bool expects(const EarleySet& set, std::int32_t term) const;
  /// `set` after the hook tokens that end the input (python: NEWLINE, DEDENTs).
  SetPtr at_end(const ParseState& ps) const;
  StatePtr finish_bash(const ParseState& ps, const LexConfig& c, std::uint64_t local) const;
  StatePtr finish_new(const ParseState& ps, const LexConfig& c, std::uint64_t local) const;
  StatePtr make_state(SetPtr set, HookState hook) const;
  /// Does every text take `b` (a step from `a`) as it takes `a`? Their shapes
  /// are compared only where the kernels' items (as shapes name them: left
  /// side and the symbols after the dot) and the hooks' levels already agree:
  /// a shape costs more than most steps.
  bool same_future(const ParseState& a, const ParseState& b) const;

  std::vector<Terminal> terminals_;
  std::vector<Rule> rules_;
  std::vector<std::vector<std::uint32_t>> rules_of_;  ///< nonterminal -> rule indices
  std::vector<std::uint8_t> nullable_;
  /// Per rule, where its items' ids start in `suffix_ids_`; per item (rule,
  /// dot), an id shared by every item with its left side and the symbols after its dot.
  std::vector<std::uint32_t> suffix_at_, suffix_ids_;
  std::vector<std::string> nonterminal_names_;
  std::int32_t start_;
  Hook hook_;
  std::vector<std::uint16_t> ignore_;   ///< always-considered terminals (ignore + hook pseudo)
  /// python: the NAME terminal (-1: none) and, per terminal, whether a text it
  /// matches can go on as a NAME (a keyword): NAME then shadows it.
  std::int32_t name_ = -1;
  std::vector<std::uint8_t> bounded_;
  /// python: per terminal, a number (its name ends in NUMBER), and whether it
  /// may start right after a number with nothing between (CPython's tokenizer:
  /// nothing that starts with an identifier character but the keywords `and`
  /// `else` `for` `if` `in` `is` `not` `or`).
  std::vector<std::uint8_t> number_, after_number_;
  void number_rules();
  std::int32_t semicolon_ = -1;  ///< bash: the literal terminal ";" (-1: none)
  /// bash: backslash-newlines outside quotes and comments vanish (twin states in the
  /// terminals, and the pseudo terminal `continuation_` where no lexeme before takes one).
  void bash_continuations();
  std::int32_t continuation_ = -1;
  /// bash: does a backslash continue terminal `t` from state `s` other than as a continuation?
  static bool backslash_extends(const Terminal& t, std::int32_t s);
  std::int32_t newline_ = -1, indent_ = -1, dedent_ = -1;
  std::int32_t heredoc_start_ = -1, heredoc_body_ = -1;

  static constexpr std::uint32_t kChunkBits = 10, kChunkSize = 1u << kChunkBits,
                                 kChunks = limits::kMaxLexerStates / kChunkSize;
  static constexpr std::size_t kMaxHeredocTerminals = 4096;
  mutable std::array<std::atomic<LexConfig*>, kChunks> chunks_{};
  mutable std::vector<std::unique_ptr<LexConfig[]>> owned_;
  mutable std::atomic<std::uint32_t> config_count_{0};
  /// Guards interning (configs, expected lists) and the lookups of what was
  /// interned, several per new parse state: held for a table look-up, and
  /// rarely longer (a new lexer configuration or heredoc terminal).
  mutable SpinLock mutex_;
  mutable std::unordered_map<std::string, std::int32_t> config_ids_;
  mutable std::unordered_map<std::string, std::int32_t> expected_ids_;
  mutable std::deque<std::vector<std::uint16_t>> expected_lists_;  ///< by id
  static constexpr std::size_t kMaxPredictions = 1u << 16;
  mutable std::unordered_map<std::string, std::shared_ptr<const Prediction>> predictions_;  ///< by seeds
  static constexpr std::size_t kMaxShapes = 1u << 16;
  mutable std::unordered_map<std::string, std::uint64_t> shapes_;  ///< see shape()
  mutable std::uint64_t shape_count_ = 0;
  mutable std::unordered_map<std::string, std::int32_t> extends_ids_;
  mutable std::unordered_map<std::string, std::int32_t> accepted_ids_;
  mutable std::unordered_map<std::uint64_t, std::int32_t> start_configs_;
  mutable std::unordered_map<std::string, std::uint16_t> heredoc_terms_;
  mutable WordTrie delimiters_;
  mutable std::vector<std::unique_ptr<Terminal>> dynamic_;  ///< heredoc bodies
  mutable std::array<std::atomic<const Terminal*>, kMaxHeredocTerminals> dynamic_index_{};
  /// Completion bounds (grammar_completion.cc), made on first use: per
  /// terminal the fewest bytes to acceptance from each state, per rule and dot
  /// the fewest bytes of the rest of the rule.
  mutable std::once_flag bounds_once_;
  mutable std::vector<std::vector<std::uint16_t>> term_dist_;
  mutable std::vector<std::vector<std::uint32_t>> rest_len_;
  void make_bounds() const;
  std::uint32_t set_bound(const EarleySet& set) const;
  SetPtr initial_;
  StatePtr initial_state_;
  /// Keeps the latest scan results alive (memo hits in the next masks). Not
  /// more: a set dropped here frees blocks that the next sets reuse, and
  /// recently written ones are still in the CPU caches (at 128k, 512 beat both
  /// 2,048 and 128).
  mutable std::array<SetPtr, 512> recent_;
  mutable std::size_t recent_next_ = 0;

 public:
  /// A terminal by id: the grammar's, then the heredoc bodies made on demand.
  const Terminal& term(std::uint32_t id) const {
    return id < terminals_.size() ? terminals_[id]
                                  : *dynamic_index_[id - terminals_.size()].load(std::memory_order_acquire);
  }
};

}  // namespace pse::grammar
