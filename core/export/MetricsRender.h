#pragma once

#include "export/ClusterMetrics.h"

#include <functional>
#include <memory>
#include <vector>

namespace groupscope::exporter {

// A view as the exporter writes it: its groups, partitions (or topics) and logs that pass the
// filters, with their label sets, gathered once a refresh. Its families are then written one
// at a time, in any order and from several threads at once, each to a writer of its own;
// joined in their order they are the view's text (ViewRenderer). The view must outlive it.
class MetricsRender {
public:
    MetricsRender(const monitor::ClusterView& view, const ExportOptions& options);
    ~MetricsRender();
    MetricsRender(const MetricsRender&) = delete;
    MetricsRender& operator=(const MetricsRender&) = delete;

    int groupCount() const;
    // The per-partition (or per-topic), per-group and log families, in the text's order.
    qsizetype familyCount() const { return qsizetype(m_families.size()); }
    void writeFamily(qsizetype family, PrometheusTextWriter& writer) const {
        m_families.at(size_t(family))(writer);
    }

private:
    struct Rows;
    std::unique_ptr<Rows> m_rows;
    std::vector<std::function<void(PrometheusTextWriter&)>> m_families;
};

} // namespace groupscope::exporter
