// Umbrella header of the native core.
#pragma once

#include "pse_core/engine.h"
#include "pse_core/errors.h"
#include "pse_core/frame.h"
#include "pse_core/limits.h"
#include "pse_core/mask_cache.h"
#include "pse_core/state_machine.h"
#include "pse_core/stepper.h"
#include "pse_core/stepper_delta.h"
#include "pse_core/trie.h"
#include "pse_core/vocabulary.h"
