#include "widgets/RebalanceTimelineWidget.h"

#include "widgets/timeline/BackdropLayer.h"
#include "widgets/timeline/GenerationDescription.h"
#include "widgets/timeline/GenerationMarkersLayer.h"
#include "widgets/timeline/HoverLayer.h"
#include "widgets/timeline/LaneBarsLayer.h"
#include "widgets/timeline/MemberLegend.h"

#include <QBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QShortcut>
#include <QToolButton>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <utility>

namespace groupscope::ui {

namespace {

constexpr int64_t kDefaultFollowWindowMs = 10 * 60 * 1000;
// Members who left that the legend still names; older ones are counted in one chip.
constexpr qsizetype maxFormerChips = 8;
constexpr int64_t kMinFollowWindowMs = 30 * 1000;
constexpr double kMinVisibleSeconds = 2.0;
constexpr double kMaxVisibleSeconds = 90.0 * 24 * 3600;
// Lanes get this many pixels at least (labels stay readable: scroll instead) and at most
// (a group with three partitions should not draw three slabs).
constexpr double kMinLanePixels = 17;
constexpr double kMaxLanePixels = 30;
// Room to the right of "now" while following, as a fraction of the window.
constexpr double kFollowLead = 0.04;
constexpr int kScrollStepsPerLane = 10;

const QString kBackdropLayer = QStringLiteral("timelineBackdrop");
const QString kBarsLayer = QStringLiteral("timelineBars");
const QString kMarkersLayer = QStringLiteral("timelineMarkers");
const QString kHoverLayer = QStringLiteral("timelineHover");

QColor over(const QColor& background, const QColor& translucent) {
    const double alpha = translucent.alphaF();
    return QColor::fromRgbF(float(background.redF() * (1 - alpha) + translucent.redF() * alpha),
                            float(background.greenF() * (1 - alpha) + translucent.greenF() * alpha),
                            float(background.blueF() * (1 - alpha) + translucent.blueF() * alpha));
}

} // namespace

RebalanceTimelineWidget::RebalanceTimelineWidget(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_laneScroll(new QScrollBar(Qt::Vertical, this))
    , m_summary(new QLabel(this))
    , m_banner(new QLabel(this))
    , m_followButton(new QToolButton(this))
    , m_fitButton(new QToolButton(this))
    , m_legend(new MemberLegend(this))
    , m_laneTicker(new QCPAxisTickerText)
    , m_followWindowMs(kDefaultFollowWindowMs) {
    m_summary->setObjectName(QStringLiteral("timelineSummary"));
    m_summary->setTextFormat(Qt::RichText);
    m_banner->setObjectName(QStringLiteral("timelineApproximateBanner"));
    m_banner->setWordWrap(true);
    m_banner->setVisible(false);

    m_fitButton->setObjectName(QStringLiteral("wholeHistoryButton"));
    m_followButton->setObjectName(QStringLiteral("followNowButton"));
    m_fitButton->setText(tr("Whole history"));
    m_fitButton->setToolTip(tr("Show every generation the timeline holds (Home)"));
    m_followButton->setText(tr("Follow now"));
    m_followButton->setCheckable(true);
    m_followButton->setChecked(true);
    m_followButton->setToolTip(
        tr("Keep the latest minutes in view as the group changes (F). Zooming or panning stops "
           "following."));
    connect(m_fitButton, &QToolButton::clicked, this, &RebalanceTimelineWidget::showWholeHistory);
    connect(m_followButton, &QToolButton::clicked, this, [this](bool checked) {
        if (checked)
            followNow();
        else
            setFollowing(false);
    });
    auto* follow =
        new QShortcut(QKeySequence(Qt::Key_F), this, this, &RebalanceTimelineWidget::followNow);
    follow->setContext(Qt::WidgetWithChildrenShortcut);
    auto* whole = new QShortcut(QKeySequence(Qt::Key_Home), this, this,
                                &RebalanceTimelineWidget::showWholeHistory);
    whole->setContext(Qt::WidgetWithChildrenShortcut);

    auto* header = new QHBoxLayout;
    header->addWidget(m_summary, 1);
    header->addWidget(m_fitButton);
    header->addWidget(m_followButton);
    auto* plotRow = new QHBoxLayout;
    plotRow->setSpacing(0);
    plotRow->addWidget(m_plot, 1);
    plotRow->addWidget(m_laneScroll);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addWidget(m_banner);
    layout->addLayout(plotRow, 1);
    layout->addWidget(m_legend);
    layout->addStretch(0);

    connect(m_legend, &MemberLegend::memberHovered, this, [this](const QString& memberId) {
        m_hover.memberId = memberId;
        requestReplot();
    });
    connect(m_laneScroll, &QScrollBar::valueChanged, this,
            [this](int value) { scrollLanesTo(double(value) / kScrollStepsPerLane); });

    setFocusPolicy(Qt::StrongFocus);
    setUpPlot();
    applyTheme();
    m_plot->xAxis->setTickLabels(false);
    setTimeRange(0, double(m_followWindowMs) / 1000.0);
}

RebalanceTimelineWidget::~RebalanceTimelineWidget() = default;

void RebalanceTimelineWidget::setUpPlot() {
    m_plot->setMinimumHeight(160);
    // A click on the plot gives it focus, so F and Home work right after a drag.
    m_plot->setFocusPolicy(Qt::ClickFocus);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setPlottingHint(QCP::phCacheLabels, true);
    QCPAxisRect* rect = m_plot->axisRect();
    // Time zooms; lanes only scroll, so vertical drags never squash them.
    rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    rect->setRangeZoom(Qt::Horizontal);
    rect->setRangeZoomFactor(0.8);
    rect->setMinimumMargins(QMargins(4, GenerationMarkersLayer::kLabelBandHeight + 2, 14, 2));

    auto timeTicker = QSharedPointer<QCPAxisTickerDateTime>::create();
    timeTicker->setTickCount(8);
    m_plot->xAxis->setTicker(timeTicker);
    m_plot->xAxis->setSubTicks(false);
    m_plot->xAxis->setTickLength(0, 4);
    m_plot->xAxis->grid()->setSubGridVisible(false);

    m_laneTicker->setSubTickCount(0);
    m_plot->yAxis->setTicker(m_laneTicker);
    m_plot->yAxis->setRangeReversed(true); // the first partition on top, like a table
    m_plot->yAxis->setSubTicks(false);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->yAxis->setBasePen(Qt::NoPen);
    m_plot->yAxis->setTickPen(Qt::NoPen);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->yAxis->setPadding(6);

    m_plot->addLayer(kBackdropLayer, m_plot->layer(QStringLiteral("grid")), QCustomPlot::limBelow);
    m_plot->addLayer(kBarsLayer, m_plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    m_plot->addLayer(kMarkersLayer, m_plot->layer(kBarsLayer), QCustomPlot::limAbove);
    m_plot->addLayer(kHoverLayer, m_plot->layer(kMarkersLayer), QCustomPlot::limAbove);
    // Its own paint buffer: following the pointer repaints this layer alone.
    m_plot->layer(kHoverLayer)->setMode(QCPLayer::lmBuffered);

    const TimelineContext context{&m_scene, &m_members, &m_theme, &m_hover};
    m_backdrop = std::make_unique<BackdropLayer>(rect, kBackdropLayer, context);
    m_bars = std::make_unique<LaneBarsLayer>(rect, kBarsLayer, context);
    m_markers = std::make_unique<GenerationMarkersLayer>(rect, kMarkersLayer, context);
    m_hoverLayer = std::make_unique<HoverLayer>(rect, kHoverLayer, context);

    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            &RebalanceTimelineWidget::onTimeRangeChanged);
    connect(m_plot->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this](const QCPRange& range) {
                // A vertical drag: the new top lane, then back to whole lanes of fixed height.
                if (!m_settingLaneRange)
                    scrollLanesTo(range.lower + 0.5);
            });
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        // The lanes' height is known only once the plot has laid itself out.
        if (layOutLanes())
            requestReplot();
    });
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        if (event->buttons() != Qt::NoButton) {
            QToolTip::hideText(); // panning: the tooltip would only be in the way
            return;
        }
        updateHover(event->position().toPoint());
    });
    m_plot->installEventFilter(this);
}

void RebalanceTimelineWidget::applyTheme() {
    m_theme = TimelineTheme::fromPalette(palette());
    m_plot->setBackground(m_theme.background);
    m_plot->axisRect()->setBackground(m_theme.background);
    QFont tickFont = font();
    tickFont.setPointSizeF(tickFont.pointSizeF() * 0.9);
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setTickLabelFont(tickFont);
        axis->grid()->setPen(QPen(m_theme.grid, 1));
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }
    m_plot->xAxis->setBasePen(QPen(m_theme.grid, 1));
    m_plot->xAxis->setTickPen(QPen(m_theme.mutedText, 1));
    m_plot->xAxis->setTickLabelColor(m_theme.mutedText);
    m_plot->yAxis->setTickLabelColor(m_theme.text);

    const QColor warning = m_theme.stateColour(kafka::GroupState::PreparingRebalance);
    QColor bannerBackground = warning;
    bannerBackground.setAlpha(m_theme.dark ? 50 : 38);
    m_banner->setStyleSheet(
        QStringLiteral("QLabel { background: %1; border-left: 3px solid %2; padding: 4px 8px; }")
            .arg(over(palette().color(QPalette::Window), bannerBackground).name(), warning.name()));
    updateLegend();
    requestReplot();
}

void RebalanceTimelineWidget::requestReplot() {
    // A timeline in a tab nobody looks at still gets a refresh every few seconds: paint it
    // when it is shown instead.
    if (!m_plot->isVisible()) {
        m_replotWhenShown = true;
        return;
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void RebalanceTimelineWidget::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (std::exchange(m_replotWhenShown, false))
        m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void RebalanceTimelineWidget::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyTheme();
}

void RebalanceTimelineWidget::setTimeline(const timeline::GroupTimeline& timeline, int64_t nowMs,
                                          bool approximate, const QString& note) {
    const bool wasEmpty = m_scene.isEmpty();
    m_members.observe(timeline);
    m_scene.rebuild(timeline, nowMs);
    if (m_scene.lanesChanged()) {
        updateLaneLabels();
        layOutLanes();
    }
    updateLegend();
    updateSummary(approximate, note);
    m_plot->xAxis->setTickLabels(!m_scene.isEmpty()); // no 1970 times on an empty view
    if (m_following)
        followNow();
    else if (wasEmpty)
        showWholeHistory();
    if (m_lastPointer.x() >= 0)
        updateHover(m_lastPointer); // the same place may now be another generation
    requestReplot();
}

void RebalanceTimelineWidget::clear() {
    m_scene.clear();
    m_members.clear();
    m_hover = {};
    m_firstLane = 0;
    updateLaneLabels();
    layOutLanes();
    updateLegend();
    updateSummary(false, QString());
    m_plot->xAxis->setTickLabels(false);
    setFollowing(true);
    requestReplot();
}

QString RebalanceTimelineWidget::describeAt(QPointF plotCoords) const {
    const auto timeMs = int64_t(std::llround(plotCoords.x() * 1000.0));
    const int lane = int(std::lround(plotCoords.y()));
    return GenerationDescription(m_scene, m_members, m_theme).describe(timeMs, lane);
}

void RebalanceTimelineWidget::followNow() {
    const double width = m_plot->xAxis->range().size() * 1000.0;
    // Following keeps the zoom the user chose, within reason.
    if (!m_following && width >= double(kMinFollowWindowMs))
        m_followWindowMs = int64_t(width);
    setFollowing(true);
    const double now = double(m_scene.nowMs()) / 1000.0;
    double window = double(m_followWindowMs) / 1000.0;
    // A young history fills the view instead of sitting in a corner of an empty window.
    if (!m_scene.isEmpty()) {
        const double age = now - double(m_scene.firstKnownMs()) / 1000.0;
        window = std::min(window, std::max(double(kMinFollowWindowMs) / 1000.0, age * 1.08));
    }
    setTimeRange(now - window * (1.0 - kFollowLead), now + window * kFollowLead);
}

void RebalanceTimelineWidget::showWholeHistory() {
    const double first = double(m_scene.firstKnownMs()) / 1000.0;
    const double now = double(m_scene.nowMs()) / 1000.0;
    const double span = std::max(60.0, now - first);
    setFollowing(false);
    setTimeRange(first - span * 0.02, now + span * kFollowLead);
    requestReplot();
}

void RebalanceTimelineWidget::setVisibleTimeRange(int64_t startMs, int64_t endMs) {
    m_plot->xAxis->setRange(double(startMs) / 1000.0, double(endMs) / 1000.0);
    requestReplot();
}

QPair<int64_t, int64_t> RebalanceTimelineWidget::visibleTimeRange() const {
    const QCPRange range = m_plot->xAxis->range();
    return {int64_t(std::llround(range.lower * 1000.0)),
            int64_t(std::llround(range.upper * 1000.0))};
}

QStringList RebalanceTimelineWidget::laneLabels() const {
    QStringList labels;
    for (const TimelineScene::Lane& lane : m_scene.lanes())
        labels << lane.label;
    return labels;
}

QColor RebalanceTimelineWidget::memberColour(const QString& memberId) const {
    return m_members.colour(memberId, m_theme.dark);
}

void RebalanceTimelineWidget::setFollowing(bool following) {
    m_following = following;
    m_followButton->setChecked(following);
}

void RebalanceTimelineWidget::setTimeRange(double lowerSeconds, double upperSeconds) {
    m_settingTimeRange = true;
    m_plot->xAxis->setRange(lowerSeconds, upperSeconds);
    m_settingTimeRange = false;
}

void RebalanceTimelineWidget::onTimeRangeChanged(const QCPRange& range) {
    if (!m_settingTimeRange)
        setFollowing(false); // the user zoomed or panned
    const double size = range.size();
    if (size < kMinVisibleSeconds || size > kMaxVisibleSeconds) {
        const double clamped = std::clamp(size, kMinVisibleSeconds, kMaxVisibleSeconds);
        const bool wasSetting = m_settingTimeRange;
        setTimeRange(range.center() - clamped / 2, range.center() + clamped / 2);
        m_settingTimeRange = wasSetting;
        return; // the nested change updated the ticker
    }
    updateTimeTicker(range);
}

void RebalanceTimelineWidget::updateTimeTicker(const QCPRange& range) {
    auto ticker = m_plot->xAxis->ticker().dynamicCast<QCPAxisTickerDateTime>();
    if (!ticker)
        return;
    const double seconds = range.size();
    if (seconds <= 2 * 3600)
        ticker->setDateTimeFormat(QStringLiteral("HH:mm:ss"));
    else if (seconds <= 2 * 86400)
        ticker->setDateTimeFormat(QStringLiteral("HH:mm"));
    else
        ticker->setDateTimeFormat(QStringLiteral("d MMM\nHH:mm"));
}

void RebalanceTimelineWidget::updateLaneLabels() {
    QMap<double, QString> ticks;
    const QList<TimelineScene::Lane>& lanes = m_scene.lanes();
    for (qsizetype lane = 0; lane < lanes.size(); ++lane)
        ticks.insert(double(lane), lanes[lane].label);
    m_laneTicker->setTicks(ticks);
}

bool RebalanceTimelineWidget::layOutLanes() {
    const double height = m_plot->axisRect()->height();
    if (height <= 0)
        return false;
    const auto laneCount = double(m_scene.lanes().size());
    const double laneHeight = laneCount > 0
                                  ? std::clamp(height / laneCount, kMinLanePixels, kMaxLanePixels)
                                  : kMaxLanePixels;
    const double visibleLanes = height / laneHeight;
    // Few lanes: the plot shrinks to them, so the time axis stays right under the lanes.
    const int chrome = m_plot->height() - m_plot->axisRect()->height();
    const int wantedHeight =
        laneCount > 0 ? int(std::ceil(laneCount * kMaxLanePixels)) + chrome : QWIDGETSIZE_MAX;
    if (m_plot->maximumHeight() != std::max(wantedHeight, m_plot->minimumHeight()))
        m_plot->setMaximumHeight(std::max(wantedHeight, m_plot->minimumHeight()));
    const double lastFirstLane = std::max(0.0, laneCount - visibleLanes);
    m_firstLane = std::clamp(m_firstLane, 0.0, lastFirstLane);

    {
        const QSignalBlocker blocker(m_laneScroll);
        m_laneScroll->setVisible(lastFirstLane > 0);
        m_laneScroll->setRange(0, int(std::ceil(lastFirstLane * kScrollStepsPerLane)));
        m_laneScroll->setPageStep(int(visibleLanes * kScrollStepsPerLane));
        m_laneScroll->setSingleStep(kScrollStepsPerLane);
        m_laneScroll->setValue(int(std::lround(m_firstLane * kScrollStepsPerLane)));
    }
    const QCPRange wanted(m_firstLane - 0.5, m_firstLane - 0.5 + visibleLanes);
    const QCPRange current = m_plot->yAxis->range();
    if (std::abs(current.lower - wanted.lower) < 1e-6 &&
        std::abs(current.upper - wanted.upper) < 1e-6)
        return false;
    m_settingLaneRange = true;
    m_plot->yAxis->setRange(wanted);
    m_settingLaneRange = false;
    return true;
}

void RebalanceTimelineWidget::scrollLanesTo(double firstLane) {
    m_firstLane = firstLane;
    if (layOutLanes())
        requestReplot();
}

void RebalanceTimelineWidget::updateLegend() {
    QList<MemberLegend::Chip> chips;
    QList<MemberLegend::Chip> formerChips;
    QSet<QString> current;
    const QList<timeline::Generation>& generations = m_scene.timeline().generations;
    if (!generations.isEmpty() && !generations.last().endMs)
        for (const timeline::GenerationMember& member : generations.last().members)
            current.insert(member.memberId);
    // Members of the current generation first, then those that left, each in order of arrival.
    for (const bool inCurrent : {true, false}) {
        for (const MemberDirectory::Entry& entry : m_members.entries()) {
            const QString& id = entry.member.memberId;
            if (current.contains(id) != inCurrent)
                continue;
            QString tip = tr("Member id: %1").arg(id);
            if (!entry.member.clientId.isEmpty())
                tip += QLatin1Char('\n') + tr("Client id: %1").arg(entry.member.clientId);
            if (!entry.member.host.isEmpty())
                tip += QLatin1Char('\n') + tr("Host: %1").arg(entry.member.host);
            if (!entry.member.groupInstanceId.isEmpty())
                tip += QLatin1Char('\n') + tr("Instance id: %1").arg(entry.member.groupInstanceId);
            if (!inCurrent)
                tip += QLatin1Char('\n') + tr("Not in the current generation");
            (inCurrent ? chips : formerChips)
                .append({id, m_members.displayName(id), tip, memberColour(id), !inCurrent, false});
        }
    }
    // A group that churns has had hundreds of members: the legend keeps the most recent
    // former ones and counts the rest, so it never grows taller than a few rows.
    const qsizetype hiddenFormer = std::max<qsizetype>(0, formerChips.size() - maxFormerChips);
    chips.append(formerChips.mid(hiddenFormer));
    if (hiddenFormer > 0)
        chips.append({{},
                      tr("+%n earlier member(s)", nullptr, int(hiddenFormer)),
                      tr("Point at a bar to see which member owned it"),
                      m_theme.unowned,
                      true,
                      true});
    if (!m_scene.isEmpty()) {
        const auto stateKey = [this](kafka::GroupState state, const QString& text,
                                     const QString& tip) {
            const QColor colour =
                state == kafka::GroupState::Empty
                    ? over(m_theme.background, QColor(m_theme.text.red(), m_theme.text.green(),
                                                      m_theme.text.blue(), 70))
                    : m_theme.stateColour(state);
            return MemberLegend::Chip{{}, text, tip, colour, false, false};
        };
        // The consumer protocol has no group-wide stop: its states say where the
        // coordinator's new target assignment is, while members keep consuming.
        if (timeline::followsGroupEpochs(m_scene.timeline().protocol)) {
            chips.append(stateKey(kafka::GroupState::Assigning, tr("Assigning"),
                                  tr("The coordinator computes a new target assignment")));
            chips.append(stateKey(kafka::GroupState::Reconciling, tr("Reconciling"),
                                  tr("Members revoke and receive partitions one by one; the "
                                     "others keep consuming")));
        } else {
            chips.append(stateKey(kafka::GroupState::PreparingRebalance, tr("Preparing rebalance"),
                                  tr("Members are (re)joining; consumption is paused")));
            chips.append(stateKey(kafka::GroupState::CompletingRebalance,
                                  tr("Completing rebalance"),
                                  tr("The leader's assignment is being handed out")));
        }
        chips.append(stateKey(kafka::GroupState::Empty, tr("Empty"),
                              tr("No members: offsets are kept, nothing consumes")));
        chips.append({{},
                      tr("Not assigned"),
                      tr("No member owned the partition"),
                      m_theme.unowned,
                      false,
                      true});
    }
    m_legend->setChips(chips);
}

void RebalanceTimelineWidget::updateSummary(bool approximate, const QString& note) {
    const timeline::GroupTimeline& timeline = m_scene.timeline();
    QStringList parts;
    if (!timeline.generations.isEmpty()) {
        const timeline::Generation& last = timeline.generations.last();
        parts << QStringLiteral("<b>%1</b>")
                     .arg(
                         last.generationId >= 0
                             ? TimelineScene::boundaryLabel(last, timeline.protocol).toHtmlEscaped()
                             : tr("generation inferred from polling"));
        parts << (last.members.size() == 1 ? tr("1 member")
                                           : tr("%1 members").arg(last.members.size()));
    }
    if (!timeline.states.isEmpty()) {
        const timeline::StateSpan& state = timeline.states.last();
        parts << tr("%1 for %2")
                     .arg(kafka::groupStateName(state.state),
                          GenerationDescription::formatDuration(state.durationMs(m_scene.nowMs())));
    }
    const bool epochs = timeline::followsGroupEpochs(timeline.protocol);
    if (!timeline.generations.isEmpty()) {
        const qsizetype count = timeline.generations.size();
        if (epochs)
            parts << (count == 1 ? tr("1 group epoch recorded")
                                 : tr("%1 group epochs recorded").arg(count));
        else
            parts << (count == 1 ? tr("1 generation recorded")
                                 : tr("%1 generations recorded").arg(count));
    }
    if (timeline.droppedGenerations > 0)
        parts << tr("%1 older not kept").arg(timeline.droppedGenerations);
    if (timeline.deleted)
        parts << tr("group deleted");
    m_summary->setText(parts.isEmpty() ? tr("No rebalance history yet")
                                       : parts.join(QStringLiteral(" · ")));
    const QString bannerText =
        note.isEmpty() ? tr("Approximate: generations are inferred from polling, so their times "
                            "may be late by one poll interval and quick rebalances between polls "
                            "are missed.")
                       : note;
    m_banner->setText(bannerText);
    m_banner->setVisible(approximate);
}

void RebalanceTimelineWidget::updateHover(const QPoint& pixel) {
    m_lastPointer = pixel;
    const QRect lanes = m_plot->axisRect()->rect();
    const QRect lanesAndLabels = lanes.adjusted(0, -GenerationMarkersLayer::kLabelBandHeight, 0, 0);
    TimelineHover hover;
    hover.memberId = m_hover.memberId;
    QString tip;
    if (lanesAndLabels.contains(pixel)) {
        const QPointF coords(m_plot->xAxis->pixelToCoord(pixel.x()),
                             m_plot->yAxis->pixelToCoord(pixel.y()));
        hover.generationIndex =
            m_scene.generationIndexAt(int64_t(std::llround(coords.x() * 1000.0)));
        const int lane = int(std::lround(coords.y()));
        const bool onLane = lanes.contains(pixel) && lane >= 0 && lane < m_scene.lanes().size();
        hover.lane = onLane ? lane : -1;
        tip = describeAt(QPointF(coords.x(), onLane ? coords.y() : -1.0));
    }
    if (hover.generationIndex != m_hover.generationIndex) {
        m_hover = hover;
        requestReplot(); // the markers emphasise the generation
    } else if (hover != m_hover) {
        m_hover = hover;
        m_plot->layer(kHoverLayer)->replot();
    }
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(m_plot->mapToGlobal(pixel), tip, m_plot);
}

void RebalanceTimelineWidget::clearHover() {
    m_lastPointer = QPoint(-1, -1);
    QToolTip::hideText();
    if (m_hover.generationIndex < 0 && m_hover.lane < 0)
        return;
    m_hover.generationIndex = -1;
    m_hover.lane = -1;
    requestReplot();
}

bool RebalanceTimelineWidget::handleWheel(QWheelEvent* event) {
    const bool overLaneLabels = event->position().x() < m_plot->axisRect()->left();
    if (!(event->modifiers() & Qt::ShiftModifier) && !overLaneLabels)
        return false; // the plot zooms time around the pointer
    const QPoint delta = event->angleDelta();
    // Some platforms turn Shift+wheel into a horizontal wheel.
    const int steps = delta.y() != 0 ? delta.y() : delta.x();
    scrollLanesTo(m_firstLane - 3.0 * steps / 120.0);
    event->accept();
    return true;
}

bool RebalanceTimelineWidget::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_plot) {
        if (event->type() == QEvent::Wheel)
            return handleWheel(static_cast<QWheelEvent*>(event));
        if (event->type() == QEvent::Leave)
            clearHover();
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace groupscope::ui
