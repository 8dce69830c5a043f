// The rebalance timeline widget on synthetic timelines: one sorted lane per partition,
// bars painted in their owner's colour (checked on the rendered pixels), colours that stay
// with a member across refreshes, labelled generation boundaries, following "now" until
// the user zooms or pans, lane scrolling for many partitions, the hover description, and
// refreshes that swap data without creating plot objects.

#include "widgets/RebalanceTimelineWidget.h"
#include "widgets/timeline/MemberLegend.h"

#include <QApplication>
#include <QLabel>
#include <QMouseEvent>
#include <QScrollBar>
#include <QTest>
#include <QTextDocument>
#include <QToolButton>
#include <QToolTip>
#include <QWheelEvent>

#include <qcustomplot.h>

using namespace groupscope;
using groupscope::timeline::Generation;
using groupscope::timeline::GenerationMember;
using groupscope::timeline::GroupTimeline;
using groupscope::ui::RebalanceTimelineWidget;

namespace {

constexpr int64_t kStart = 1'790'000'000'000; // a fixed wall-clock time, ms
constexpr int64_t kNow = kStart + 9 * 60'000;

const GenerationMember kAlice{QStringLiteral("worker-1-aaaa-1111"),
                              {},
                              QStringLiteral("worker"),
                              QStringLiteral("/10.0.0.1")};
const GenerationMember kBob{QStringLiteral("worker-2-bbbb-2222"),
                            {},
                            QStringLiteral("worker"),
                            QStringLiteral("/10.0.0.2")};
const GenerationMember kCarol{
    QStringLiteral("ledger-cccc-3333"), {}, QStringLiteral("ledger"), QStringLiteral("/10.0.0.3")};
const GenerationMember kDave{
    QStringLiteral("fraud-dddd-4444"), {}, QStringLiteral("fraud"), QStringLiteral("/10.0.0.4")};

int64_t at(int seconds) {
    return kStart + int64_t(seconds) * 1000;
}

// Partitions of "orders" (0..10, so "orders-10" must sort after "orders-9") and
// "payments" (0) dealt round-robin to the members.
Generation generation(int id, int startSeconds, const QList<GenerationMember>& members,
                      int ordersPartitions = 11) {
    Generation result;
    result.generationId = id;
    result.startMs = at(startSeconds);
    result.protocolType = QStringLiteral("consumer");
    result.protocol = members.isEmpty() ? QString() : QStringLiteral("range");
    result.members = members;
    std::sort(result.members.begin(), result.members.end(),
              [](const auto& a, const auto& b) { return a.memberId < b.memberId; });
    result.leader = members.isEmpty() ? QString() : result.members.first().memberId;
    if (members.isEmpty())
        return result;
    for (int p = 0; p < ordersPartitions; ++p)
        result.ownerByPartition.insert({QStringLiteral("orders"), p},
                                       result.members[p % result.members.size()].memberId);
    result.ownerByPartition.insert({QStringLiteral("payments"), 0}, result.members[0].memberId);
    return result;
}

void append(GroupTimeline& timeline, Generation next) {
    if (!timeline.generations.isEmpty()) {
        Generation& previous = timeline.generations.last();
        previous.endMs = next.startMs;
        for (const GenerationMember& member : next.members)
            if (!previous.members.contains(member))
                next.joinedMemberIds << member.memberId;
        for (const GenerationMember& member : previous.members)
            if (!next.members.contains(member))
                next.leftMemberIds << member.memberId;
    }
    timeline.generations.append(next);
}

void enter(GroupTimeline& timeline, kafka::GroupState state, int startSeconds,
           bool approximate = false) {
    if (!timeline.states.isEmpty())
        timeline.states.last().endMs = at(startSeconds);
    timeline.states.append({state, at(startSeconds), std::nullopt, approximate});
}

// 3 -> 4 -> 2 members, then Empty, then 2 members again.
GroupTimeline sampleTimeline() {
    GroupTimeline timeline;
    timeline.group = QStringLiteral("billing");
    enter(timeline, kafka::GroupState::Stable, 0);
    append(timeline, generation(5, 0, {kAlice, kBob, kCarol}));
    enter(timeline, kafka::GroupState::PreparingRebalance, 120);
    enter(timeline, kafka::GroupState::CompletingRebalance, 123);
    enter(timeline, kafka::GroupState::Stable, 124);
    append(timeline, generation(6, 124, {kAlice, kBob, kCarol, kDave}));
    enter(timeline, kafka::GroupState::PreparingRebalance, 270);
    enter(timeline, kafka::GroupState::Stable, 276);
    append(timeline, generation(7, 276, {kAlice, kDave}));
    enter(timeline, kafka::GroupState::Empty, 400);
    append(timeline, generation(8, 400, {}));
    enter(timeline, kafka::GroupState::PreparingRebalance, 460);
    enter(timeline, kafka::GroupState::Stable, 464);
    append(timeline, generation(9, 464, {kBob, kCarol}));
    return timeline;
}

QString plainText(const QString& html) {
    QTextDocument document;
    document.setHtml(html);
    return document.toPlainText();
}

// Distance between two colours, generous enough for antialiased edges not to matter at a
// bar's centre and strict enough to tell palette entries apart.
bool sameColour(const QColor& a, const QColor& b) {
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
               std::abs(a.blue() - b.blue()) <=
           12;
}

void sendWheel(QWidget* target, QPointF position, int angle, Qt::KeyboardModifiers modifiers = {}) {
    QWheelEvent wheel(position, target->mapToGlobal(position), QPoint(), QPoint(0, angle),
                      Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &wheel);
}

void sendMouse(QWidget* target, QEvent::Type type, QPointF position, Qt::MouseButtons buttons) {
    const Qt::MouseButton button = type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton;
    QMouseEvent event(type, position, target->mapToGlobal(position), button, buttons,
                      Qt::NoModifier);
    QApplication::sendEvent(target, &event);
}

} // namespace

class TestRebalanceTimelineWidget : public QObject {
    Q_OBJECT

    std::unique_ptr<RebalanceTimelineWidget> m_widget;

    RebalanceTimelineWidget& shown(const GroupTimeline& timeline, int64_t nowMs = kNow) {
        m_widget = std::make_unique<RebalanceTimelineWidget>();
        m_widget->resize(1100, 600);
        m_widget->setTimeline(timeline, nowMs, false, QString());
        m_widget->show();
        settle();
        return *m_widget;
    }

    // Lays the plot out and paints it now (the lanes' height depends on the layout).
    void settle() {
        QApplication::processEvents();
        m_widget->plot()->replot();
        m_widget->plot()->replot();
    }

    QColor pixelAt(int64_t timeMs, int lane) {
        settle();
        QCustomPlot* plot = m_widget->plot();
        const QImage image = plot->toPixmap().toImage();
        const QPoint point(int(plot->xAxis->coordToPixel(double(timeMs) / 1000.0)),
                           int(plot->yAxis->coordToPixel(lane)));
        return image.pixelColor(point);
    }

    QPointF pixelOf(int64_t timeMs, double lane) const {
        QCustomPlot* plot = m_widget->plot();
        return {plot->xAxis->coordToPixel(double(timeMs) / 1000.0),
                plot->yAxis->coordToPixel(lane)};
    }

private slots:
    void cleanup() { m_widget.reset(); }

    void oneSortedLanePerPartition() {
        RebalanceTimelineWidget& widget = shown(sampleTimeline());
        QStringList expected;
        for (int p = 0; p <= 10; ++p)
            expected << QStringLiteral("orders-%1").arg(p);
        expected << QStringLiteral("payments-0");
        QCOMPARE(widget.laneLabels(), expected);
        // The lane labels are the y axis' tick labels, one per lane.
        auto ticker = widget.plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().values(), expected);
    }

    void barsArePaintedInTheOwnersColour() {
        const GroupTimeline timeline = sampleTimeline();
        RebalanceTimelineWidget& widget = shown(timeline);
        widget.showWholeHistory();
        const QColor alice = widget.memberColour(kAlice.memberId);
        const QColor bob = widget.memberColour(kBob.memberId);
        const QColor carol = widget.memberColour(kCarol.memberId);
        const QColor dave = widget.memberColour(kDave.memberId);
        QCOMPARE(QSet<QRgb>({alice.rgb(), bob.rgb(), carol.rgb(), dave.rgb()}).size(), 4);

        // Generation 5 (3 members, sorted ledger, worker-1, worker-2): orders-0 is Carol's,
        // orders-1 Alice's, orders-2 Bob's. Generation 7: orders-1 is Dave's... by sorted id
        // (fraud, worker-1): orders-0 Dave, orders-1 Alice.
        QVERIFY2(sameColour(pixelAt(at(60), 0), carol), "orders-0 in generation 5 is Carol's");
        QVERIFY(sameColour(pixelAt(at(60), 1), alice));
        QVERIFY(sameColour(pixelAt(at(60), 2), bob));
        QVERIFY(sameColour(pixelAt(at(300), 0), dave));
        QVERIFY(sameColour(pixelAt(at(300), 1), alice));
        // Empty generation: nobody owns anything, so no member colour is painted there.
        const QColor gap = pixelAt(at(430), 0);
        for (const QColor& member : {alice, bob, carol, dave})
            QVERIFY(!sameColour(gap, member));
    }

    void aMemberKeepsItsColourAcrossRefreshes() {
        GroupTimeline timeline = sampleTimeline();
        RebalanceTimelineWidget& widget = shown(timeline);
        const QColor alice = widget.memberColour(kAlice.memberId);
        const QColor bob = widget.memberColour(kBob.memberId);

        // The oldest generations are forgotten and a member whose id sorts first arrives.
        const GenerationMember early{QStringLiteral("aaa-first-0000"),
                                     {},
                                     QStringLiteral("early"),
                                     QStringLiteral("/10.0.0.9")};
        timeline.generations.removeFirst();
        timeline.generations.removeFirst();
        timeline.droppedGenerations = 2;
        append(timeline, generation(10, 500, {early, kAlice, kBob}));
        widget.setTimeline(timeline, kNow, false, QString());
        settle();

        QCOMPARE(widget.memberColour(kAlice.memberId), alice);
        QCOMPARE(widget.memberColour(kBob.memberId), bob);
        const QColor newcomer = widget.memberColour(early.memberId);
        QVERIFY(newcomer != alice && newcomer != bob);
        QVERIFY(newcomer != widget.memberColour(kCarol.memberId));
        QVERIFY(newcomer != widget.memberColour(kDave.memberId));
        // Generation 10 deals orders-0 to the first member by id: the newcomer.
        QVERIFY(sameColour(pixelAt(at(520), 0), newcomer));
    }

    void legendNamesMembersByClientId() {
        RebalanceTimelineWidget& widget = shown(sampleTimeline());
        QStringList names;
        for (const auto& chip : widget.legend()->chips())
            if (!chip.memberId.isEmpty())
                names << chip.text;
        // Current members first; two members share the client id "worker", so their chips
        // carry the end of their member ids.
        QCOMPARE(names, QStringList({QStringLiteral("ledger"), QStringLiteral("worker …2222"),
                                     QStringLiteral("worker …1111"), QStringLiteral("fraud")}));
        const auto chips = widget.legend()->chips();
        QVERIFY(!chips[1].dimmed);
        QVERIFY(chips[2].dimmed); // Alice left
        QCOMPARE(chips[1].colour, widget.memberColour(kBob.memberId));
        QVERIFY(chips[2].toolTip.contains(kAlice.memberId));
    }

    void aChurningGroupsLegendStaysShort() {
        // Thirty generations, each with a member nobody saw before.
        GroupTimeline timeline;
        timeline.group = QStringLiteral("shipping");
        enter(timeline, kafka::GroupState::Stable, 0);
        for (int g = 0; g < 30; ++g) {
            const GenerationMember newcomer{QStringLiteral("member-%1").arg(g),
                                            {},
                                            QStringLiteral("client-%1").arg(g),
                                            QStringLiteral("/10.0.1.%1").arg(g)};
            append(timeline, generation(g + 1, g * 10, {kAlice, newcomer}));
        }
        RebalanceTimelineWidget& widget = shown(timeline);
        int members = 0;
        bool counted = false;
        for (const auto& chip : widget.legend()->chips()) {
            members += chip.memberId.isEmpty() ? 0 : 1;
            counted = counted || chip.text.contains(QStringLiteral("+21 earlier member"));
        }
        QCOMPARE(members, 2 + 8); // the current two, the eight who left most recently
        QVERIFY(counted);
        QVERIFY2(widget.legend()->heightForWidth(1100) < 120,
                 qPrintable(QString::number(widget.legend()->heightForWidth(1100))));
    }

    void pointingAtALegendEntryBringsThatMemberForward() {
        RebalanceTimelineWidget& widget = shown(sampleTimeline());
        widget.showWholeHistory();
        const QColor carol = widget.memberColour(kCarol.memberId);
        const QColor alice = widget.memberColour(kAlice.memberId);
        QVERIFY(sameColour(pixelAt(at(60), 1), alice));

        ui::MemberLegend* legend = widget.legend();
        const qsizetype carolChip = [&] {
            for (qsizetype i = 0; i < legend->chips().size(); ++i)
                if (legend->chips()[i].memberId == kCarol.memberId)
                    return i;
            return qsizetype(-1);
        }();
        QVERIFY(carolChip >= 0);
        sendMouse(legend, QEvent::MouseMove, legend->chipRect(int(carolChip)).center(),
                  Qt::NoButton);
        QVERIFY(sameColour(pixelAt(at(60), 0), carol));  // Carol's bar keeps its colour
        QVERIFY(!sameColour(pixelAt(at(60), 1), alice)); // Alice's fades
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(legend, &leave);
        QVERIFY(sameColour(pixelAt(at(60), 1), alice));
    }

    void generationBoundariesAreLabelled() {
        GroupTimeline timeline = sampleTimeline();
        Generation inferred = generation(-1, 520, {kBob});
        inferred.approximate = true;
        append(timeline, inferred);
        RebalanceTimelineWidget& widget = shown(timeline);
        QStringList labels;
        QList<bool> approximate;
        for (const auto& boundary : widget.scene().boundaries()) {
            labels << boundary.label;
            approximate << boundary.approximate;
        }
        QCOMPARE(labels, QStringList({QStringLiteral("gen 5"), QStringLiteral("gen 6"),
                                      QStringLiteral("gen 7"), QStringLiteral("gen 8"),
                                      QStringLiteral("gen 9"), QStringLiteral("≈")}));
        QCOMPARE(approximate, QList<bool>({false, false, false, false, false, true}));
        QCOMPARE(widget.scene().boundaries()[2].atMs, at(276));
    }

    void followsNowUntilTheUserZooms() {
        RebalanceTimelineWidget& widget = shown(sampleTimeline());
        QVERIFY(widget.isFollowingNow());
        const auto [start, end] = widget.visibleTimeRange();
        QVERIFY(start < kNow && kNow < end);
        QVERIFY(end - kNow < (end - start) / 10); // "now" sits at the right edge

        // A refresh two seconds later scrolls the view: the new "now" at the right edge.
        // (The history is younger than the follow window, so the view also widens a
        // little with it: a young history fills the view.)
        widget.setTimeline(sampleTimeline(), kNow + 2000, false, QString());
        const auto [laterStart, laterEnd] = widget.visibleTimeRange();
        QVERIFY(laterEnd > end);
        QVERIFY(laterStart < kNow + 2000 && kNow + 2000 < laterEnd);
        QVERIFY(laterEnd - (kNow + 2000) < (laterEnd - laterStart) / 10);

        // The wheel zooms time around the pointer and stops following.
        sendWheel(widget.plot(), pixelOf(at(300), 3), 120);
        QVERIFY(!widget.isFollowingNow());
        const auto zoomed = widget.visibleTimeRange();
        QVERIFY(zoomed.second - zoomed.first < end - start);
        QVERIFY(zoomed.first < at(300) && at(300) < zoomed.second);
        widget.setTimeline(sampleTimeline(), kNow + 4000, false, QString());
        QCOMPARE(widget.visibleTimeRange(), zoomed); // the user's view stays

        // Follow returns, with the zoom level the user chose.
        auto* follow = widget.findChild<QToolButton*>(QStringLiteral("followNowButton"));
        QVERIFY(follow && !follow->isChecked());
        follow->click();
        QVERIFY(widget.isFollowingNow());
        const auto followed = widget.visibleTimeRange();
        QVERIFY(followed.first < kNow + 4000 && kNow + 4000 < followed.second);
        QCOMPARE(followed.second - followed.first,
                 std::max<int64_t>(zoomed.second - zoomed.first, 30'000));
    }

    void dragPanStopsFollowingAndTheFKeyReturns() {
        RebalanceTimelineWidget& widget = shown(sampleTimeline());
        QCustomPlot* plot = widget.plot();
        const QPointF from = pixelOf(at(300), 3);
        sendMouse(plot, QEvent::MouseButtonPress, from, Qt::LeftButton);
        sendMouse(plot, QEvent::MouseMove, from + QPointF(150, 0), Qt::LeftButton);
        sendMouse(plot, QEvent::MouseButtonRelease, from + QPointF(150, 0), Qt::NoButton);
        QVERIFY(!widget.isFollowingNow());
        QVERIFY(widget.visibleTimeRange().second < kNow); // dragged right: earlier times

        widget.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&widget));
        QTest::keyClick(&widget, Qt::Key_F);
        QVERIFY(widget.isFollowingNow());
        QVERIFY(widget.visibleTimeRange().second > kNow);
    }

    void manyPartitionsScrollAtALegibleLaneHeight() {
        GroupTimeline timeline;
        append(timeline, generation(1, 0, {kAlice, kBob, kCarol}, 150));
        RebalanceTimelineWidget& widget = shown(timeline);
        QCOMPARE(widget.laneLabels().size(), 151);
        QCustomPlot* plot = widget.plot();
        const double laneHeight =
            std::abs(plot->yAxis->coordToPixel(1) - plot->yAxis->coordToPixel(0));
        QVERIFY2(laneHeight >= 16, qPrintable(QString::number(laneHeight)));
        QVERIFY(widget.laneScrollBar()->isVisible());
        QVERIFY(plot->yAxis->range().size() < 151);
        QCOMPARE(plot->yAxis->range().lower, -0.5);

        // The wheel over the lane labels scrolls lanes, not time, and keeps following.
        const auto timeRange = widget.visibleTimeRange();
        sendWheel(plot, QPointF(plot->axisRect()->left() / 2.0, 200), -120);
        settle();
        QCOMPARE(plot->yAxis->range().lower, 2.5); // three lanes per notch
        QCOMPARE(widget.visibleTimeRange(), timeRange);
        QVERIFY(widget.isFollowingNow());
        QCOMPARE(widget.laneScrollBar()->value(), 30);
        // The scroll bar drives the lanes too, and never past the last lane.
        widget.laneScrollBar()->setValue(widget.laneScrollBar()->maximum());
        settle();
        QVERIFY(qAbs(plot->yAxis->range().upper - 150.5) < 0.11);
    }

    void describesTheGenerationUnderThePointer() {
        RebalanceTimelineWidget& widget = shown(sampleTimeline());
        // Generation 7 (Alice and Dave) on orders-2.
        const QString text =
            plainText(widget.describeAt(RebalanceTimelineWidget::plotCoords(at(300), 2)));
        QVERIFY2(text.contains(QStringLiteral("Generation 7")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("assignor range")));
        QVERIFY(text.contains(QStringLiteral("leader fraud")));
        QVERIFY(text.contains(QStringLiteral("lasted 2m 04s")));
        QVERIFY(text.contains(QStringLiteral("Members (2)")));
        QVERIFY(text.contains(QStringLiteral("worker …1111 @ /10.0.0.1")));
        QVERIFY(text.contains(QStringLiteral("fraud @ /10.0.0.4")));
        QVERIFY(text.contains(QStringLiteral("Left: ■ ledger, ■ worker …2222")));
        QVERIFY(!text.contains(QStringLiteral("Joined:")));
        QVERIFY(text.contains(QStringLiteral("orders-2 owned by ■ fraud @ /10.0.0.4")));
        // Generation 6 dealt orders-2 to worker-1 (sorted: fraud, ledger, worker-1, worker-2),
        // generation 7 (fraud, worker-1) to fraud.
        QVERIFY(text.contains(QStringLiteral("orders-2: ■ worker …1111 → ■ fraud")));
        QVERIFY(text.contains(QStringLiteral("partitions changed owner")));
        QVERIFY(text.contains(QStringLiteral("State: Stable")));

        // During a rebalance: the state says so; the current generation says "so far".
        const QString rebalancing =
            plainText(widget.describeAt(RebalanceTimelineWidget::plotCoords(at(121), 0)));
        QVERIFY2(rebalancing.contains(QStringLiteral("State: PreparingRebalance (3.0 s)")),
                 qPrintable(rebalancing));
        const QString current =
            plainText(widget.describeAt(RebalanceTimelineWidget::plotCoords(at(500), -1)));
        QVERIFY(current.contains(QStringLiteral("Generation 9")));
        QVERIFY(current.contains(QStringLiteral("current, 1m 16s so far")));
        QVERIFY(current.contains(QStringLiteral("Joined: ■ ledger, ■ worker …2222")));
        QVERIFY(!current.contains(QStringLiteral("owned by"))); // no lane under the pointer
        // Before anything was recorded there is nothing to say.
        QVERIFY(widget.describeAt(RebalanceTimelineWidget::plotCoords(at(-60), 0)).isEmpty());
    }

    // A static member (group.instance.id) restarting under a new member id is the same
    // consumer: its partitions keep their owner, its colour and its name, and the tooltip
    // says it restarted instead of listing every partition as moved.
    void aStaticMemberRestartKeepsItsPartitionsAndColour() {
        GenerationMember before = kAlice;
        before.groupInstanceId = QStringLiteral("worker-static-1");
        GenerationMember after = before;
        after.memberId = QStringLiteral("worker-1-eeee-5555");
        GroupTimeline timeline;
        timeline.group = QStringLiteral("billing");
        enter(timeline, kafka::GroupState::Stable, 0);
        Generation first = generation(5, 0, {before, kBob});
        first.startedBeforeWindow = true;
        append(timeline, first);
        Generation restarted = generation(6, 200, {after, kBob});
        restarted.replacedMembers.append(
            {before.groupInstanceId, before.memberId, after.memberId, at(200)});
        timeline.generations.append(restarted); // neither joined nor left
        timeline.generations[0].endMs = at(200);

        RebalanceTimelineWidget& widget = shown(timeline);
        widget.showWholeHistory();
        QCOMPARE(widget.memberColour(after.memberId), widget.memberColour(before.memberId));
        QVERIFY(widget.memberColour(after.memberId) != widget.memberColour(kBob.memberId));
        QVERIFY(sameColour(pixelAt(at(100), 1), pixelAt(at(300), 1)));

        const QString text =
            plainText(widget.describeAt(RebalanceTimelineWidget::plotCoords(at(300), 1)));
        QVERIFY2(text.contains(QStringLiteral("No partition changed owner")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Restarted: ■ worker …5555 [worker-static-1]")));
        QVERIFY(!text.contains(QStringLiteral("Joined:")));
        QVERIFY(!text.contains(QStringLiteral("Left:")));

        const QString formed =
            plainText(widget.describeAt(RebalanceTimelineWidget::plotCoords(at(100), 1)));
        QVERIFY2(formed.contains(QStringLiteral("Formed before the history window")),
                 qPrintable(formed));
    }

    void hoveringShowsTheDescriptionAsATooltip() {
        RebalanceTimelineWidget& widget = shown(sampleTimeline());
        widget.showWholeHistory();
        settle();
        const QPointF point = pixelOf(at(300), 2);
        sendMouse(widget.plot(), QEvent::MouseMove, point, Qt::NoButton);
        QCOMPARE(widget.hoveredGeneration(), 2);
        QCOMPARE(widget.hoveredLane(), 2);
        const QString expected =
            widget.describeAt(QPointF(widget.plot()->xAxis->pixelToCoord(point.x()),
                                      widget.plot()->yAxis->pixelToCoord(point.y())));
        QTRY_COMPARE(QToolTip::text(), expected);
        // A refresh keeps the hover (same place, same generation).
        widget.setTimeline(sampleTimeline(), kNow + 2000, false, QString());
        QCOMPARE(widget.hoveredGeneration(), 2);
        QCOMPARE(widget.hoveredLane(), 2);
    }

    void refreshesSwapDataWithoutNewPlotObjects() {
        RebalanceTimelineWidget& widget = shown(sampleTimeline());
        QCustomPlot* plot = widget.plot();
        const int layers = plot->layerCount();
        const int items = plot->itemCount();
        const int plottables = plot->plottableCount();
        const auto ticker = plot->yAxis->ticker();
        const auto ticks = ticker.dynamicCast<QCPAxisTickerText>()->ticks();
        int barsLayerChildren = plot->layer(QStringLiteral("timelineBars"))->children().size();
        for (int refresh = 1; refresh <= 50; ++refresh) {
            GroupTimeline timeline = sampleTimeline();
            timeline.states.last().endMs = std::nullopt;
            widget.setTimeline(timeline, kNow + refresh * 2000, false, QString());
            QVERIFY(!widget.scene().lanesChanged());
        }
        settle();
        QCOMPARE(plot->layerCount(), layers);
        QCOMPARE(plot->itemCount(), items);
        QCOMPARE(plot->plottableCount(), plottables);
        QCOMPARE(plot->layer(QStringLiteral("timelineBars"))->children().size(), barsLayerChildren);
        QCOMPARE(plot->yAxis->ticker(), ticker);
        QCOMPARE(ticker.dynamicCast<QCPAxisTickerText>()->ticks(), ticks);
    }

    void saysWhenTheTimelineIsApproximate() {
        RebalanceTimelineWidget& widget = shown(sampleTimeline());
        QVERIFY(!widget.approximateBanner()->isVisible());
        const QString note =
            QStringLiteral("The offsets topic cannot be read: inferred from polling.");
        widget.setTimeline(sampleTimeline(), kNow, true, note);
        QVERIFY(widget.approximateBanner()->isVisible());
        QCOMPARE(widget.approximateBanner()->text(), note);
        widget.setTimeline(sampleTimeline(), kNow, false, QString());
        QVERIFY(!widget.approximateBanner()->isVisible());
    }

    void followsTheDarkPalette() {
        RebalanceTimelineWidget& widget = shown(sampleTimeline());
        const QColor lightAlice = widget.memberColour(kAlice.memberId);
        QPalette dark = widget.palette();
        dark.setColor(QPalette::Base, QColor(0x1e1f22));
        dark.setColor(QPalette::Window, QColor(0x2b2d30));
        dark.setColor(QPalette::Text, QColor(0xdfe1e5));
        dark.setColor(QPalette::WindowText, QColor(0xdfe1e5));
        widget.setPalette(dark);
        widget.showWholeHistory();
        const QColor darkAlice = widget.memberColour(kAlice.memberId);
        QVERIFY(darkAlice != lightAlice);
        QVERIFY(darkAlice.lightnessF() > lightAlice.lightnessF());
        QVERIFY(sameColour(pixelAt(at(60), 1), darkAlice));
        QCOMPARE(widget.plot()->axisRect()->backgroundBrush().color(), QColor(0x1e1f22));
    }

    void clearForgetsTheGroup() {
        RebalanceTimelineWidget& widget = shown(sampleTimeline());
        widget.followNow();
        sendWheel(widget.plot(), pixelOf(at(300), 3), 120);
        widget.clear();
        QVERIFY(widget.laneLabels().isEmpty());
        QVERIFY(widget.legend()->chips().isEmpty());
        QVERIFY(widget.isFollowingNow());
        QVERIFY(widget.describeAt(RebalanceTimelineWidget::plotCoords(at(300), 2)).isEmpty());
    }
};

QTEST_MAIN(TestRebalanceTimelineWidget)
#include "TestRebalanceTimelineWidget.moc"
