#pragma once

#include "alerts/Alert.h"
#include "alerts/AlertThresholds.h"
#include "monitor/GroupSummary.h"

#include <QHash>
#include <QSet>

namespace groupscope::alerts {

// Decides which changes of a watched group are worth interrupting someone for: pure code,
// values in, alerts out, so every rule is a unit test.
//
// - A change is a difference from the previous refresh of the same group. The first
//   refresh that shows a group (after connecting, or after it became watched) and the
//   first verdict a group gets (NOTFOUND until its commit window has data) are the
//   baseline: a window opened on a cluster in trouble does not pour out an alert per
//   group, and the panel's first entries are real changes.
// - Only worsening alerts: lag's verdict rising (OK → WARN → ERR, or an ERR whose
//   partition status changes, STOP → STALL), a rebalance becoming stuck, a storm
//   beginning, the last member leaving, a lag or time-lag threshold crossed upwards.
//   Recovery is quiet.
// - The same alert (group, kind and new value) within repeatAfterMs of the last one is
//   dropped, so a verdict flapping between OK and WARN alerts once, not every refresh.
class AlertDecider {
public:
    struct Options {
        int64_t repeatAfterMs = 600'000;
    };

    AlertDecider() = default;
    explicit AlertDecider(Options options)
        : m_options(options) {}

    void setThresholds(const QHash<QString, AlertThresholds>& thresholds) {
        m_thresholds = thresholds;
    }

    // The alerts of one refresh at `atMs`: every group of `groups` (the group list's rows,
    // sorted by id, so an alert says what the list shows) that is in `watched`. Groups that
    // stopped being watched are forgotten, so watching one again starts with a baseline.
    QList<Alert> observe(const QList<monitor::GroupSummary>& groups, const QSet<QString>& watched,
                         int64_t atMs);
    // A new connection: every group starts with a baseline again.
    void reset();

    // "ERR (STALL)", "WARN", "OK", "–" (no verdict yet): lag's verdict as alerts name it.
    static QString verdictLabel(lag::GroupStatus lagHealth, lag::PartitionStatus worstPartition);

private:
    // What the rules compare, reduced from one refresh of a group.
    struct Observation {
        lag::GroupStatus lagHealth = lag::GroupStatus::NotFound;
        lag::PartitionStatus worstPartition = lag::PartitionStatus::Ok;
        QString verdict;
        bool stuck = false;
        bool storm = false;
        int members = 0;
        bool empty = false;
        std::optional<int64_t> totalLag;
        std::optional<double> timeLagSeconds;
    };

    static Observation observe(const monitor::GroupSummary& group);
    void compare(const Observation& before, const Observation& now,
                 const monitor::GroupSummary& group, int64_t atMs, QList<Alert>& alerts);
    void raise(Alert alert, QList<Alert>& alerts);

    Options m_options;
    QHash<QString, AlertThresholds> m_thresholds;
    QHash<QString, Observation> m_previous;
    // When each (group, kind, new value) was last raised.
    QHash<QString, int64_t> m_lastRaised;
};

} // namespace groupscope::alerts
