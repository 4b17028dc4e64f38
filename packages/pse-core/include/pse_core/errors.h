// Exception hierarchy of the native core. The bindings translate each class to
// the Python class of the same name in pse_core.errors.
#pragma once

#include <stdexcept>
#include <string>

namespace pse {

/// \brief Base of every error the engine raises.
class PseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// \brief A malformed state machine (empty phrase, missing state, bad bounds).
class GrammarError : public PseError {
 public:
  using PseError::PseError;
};

/// \brief A token fed to the engine that no active stepper can consume.
class TokenRejectedError : public PseError {
 public:
  using PseError::PseError;
};

/// \brief A vocabulary that cannot be used (no tokens, bad ids).
class VocabularyError : public PseError {
 public:
  using PseError::PseError;
};

}  // namespace pse
