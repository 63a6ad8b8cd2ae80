// The CSV headers itch5inside's --stats and --depth files must have, typed by hand from docs/formats.md
// (JayBeams' offline_feed_statistics columns; the depth groups named in the column). Test code: never
// produced by the library under test. Used by the book statistics tests and by the itch5inside tool tests.
#pragma once

#include <string>

namespace itch5_test {

inline const std::string stats_csv_header =
    "Name,NSamples,"
    "minRatePerSec,p25RatePerSec,p50RatePerSec,p75RatePerSec,p90RatePerSec,p99RatePerSec,p999RatePerSec,"
    "p9999RatePerSec,maxRatePerSec,"
    "minRatePerMSec,p25RatePerMSec,p50RatePerMSec,p75RatePerMSec,p90RatePerMSec,p99RatePerMSec,"
    "p999RatePerMSec,p9999RatePerMSec,maxRatePerMSec,"
    "minRatePerUSec,p25RatePerUSec,p50RatePerUSec,p75RatePerUSec,p90RatePerUSec,p99RatePerUSec,"
    "p999RatePerUSec,p9999RatePerUSec,maxRatePerUSec,"
    "minArrival,p0001Arrival,p001Arrival,p01Arrival,p05Arrival,p10Arrival,p25Arrival,p50Arrival,p75Arrival,"
    "p90Arrival,p99Arrival,maxArrival,"
    "minProcessing,p10Processing,p25Processing,p50Processing,p75Processing,p90Processing,p99Processing,"
    "p999Processing,p9999Processing,maxProcessing\n";

inline const std::string depth_csv_header =
    "Name,NSamples,"
    "minEventDepth,p25EventDepth,p50EventDepth,p75EventDepth,p90EventDepth,p99EventDepth,p999EventDepth,"
    "p9999EventDepth,maxEventDepth,"
    "minBookDepth,p25BookDepth,p50BookDepth,p75BookDepth,p90BookDepth,p99BookDepth,p999BookDepth,"
    "p9999BookDepth,maxBookDepth\n";

}  // namespace itch5_test
