// The whole public API of fastmedian.
#pragma once

#include "fastmedian/background.hpp"
#include "fastmedian/cancel.hpp"
#include "fastmedian/convolve.hpp"
#include "fastmedian/devices.hpp"
#include "fastmedian/errors.hpp"
#include "fastmedian/image.hpp"
#include "fastmedian/median.hpp"
#include "fastmedian/median3d.hpp"
#include "fastmedian/options.hpp"
#include "fastmedian/temporal.hpp"
