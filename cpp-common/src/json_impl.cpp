// Boost.JSON in header-only mode: Debian's Boost 1.81 ships no compiled libboost_json.
#include <boost/json/src.hpp>
