// A view a refresh replaced is freed on a pool thread after the window's repaint that the
// refresh asked for, not before it and not during it; when refreshes come faster than the
// event loop, only the newest replaced view waits, older ones are freed at once.

#include "windows/ReleaseAfterRepaint.h"

#include <QCoreApplication>
#include <QEvent>
#include <QTest>
#include <QThreadPool>
#include <QWidget>

using groupscope::monitor::ClusterView;
using groupscope::monitor::GroupSummary;
using groupscope::ui::ReleaseAfterRepaint;

namespace {

// A view of one group, and a second reference to its list: once the view is freed, the
// witness alone holds the list.
struct WitnessedView {
    ClusterView view;
    QList<GroupSummary> witness;

    explicit WitnessedView(const QString& group) {
        GroupSummary row;
        row.groupId = group;
        view.groupList.append(row);
        witness = view.groupList;
    }
    bool freed() const { return witness.isDetached(); }
};

// Records, at each of the widget's paints, whether the view was freed by then.
class PaintWatch : public QObject {
public:
    PaintWatch(QWidget& widget, const WitnessedView& view)
        : m_view(view) {
        widget.installEventFilter(this);
    }
    QList<bool> freedAtPaint;

protected:
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::Paint) {
            QThreadPool::globalInstance()->waitForDone(); // a release already started
            freedAtPaint.append(m_view.freed());
        }
        return false;
    }

private:
    const WitnessedView& m_view;
};

} // namespace

class TestReleaseAfterRepaint : public QObject {
    Q_OBJECT

private slots:
    void theReplacedViewIsFreedAfterTheRepaint() {
        QWidget window;
        window.resize(200, 100);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCoreApplication::processEvents();
        ReleaseAfterRepaint releases;
        WitnessedView replaced(QStringLiteral("orders"));
        PaintWatch watch(window, replaced);

        window.update(); // the refresh's repaint, asked for before the release
        releases.release(std::exchange(replaced.view, {}));
        QVERIFY(!replaced.freed());
        QTRY_VERIFY_WITH_TIMEOUT(!watch.freedAtPaint.isEmpty(), 5000);
        QCOMPARE(watch.freedAtPaint.first(), false);
        QTRY_VERIFY_WITH_TIMEOUT(replaced.freed(), 5000);
    }

    void onlyTheNewestReplacedViewWaits() {
        ReleaseAfterRepaint releases;
        WitnessedView first(QStringLiteral("orders"));
        WitnessedView second(QStringLiteral("payments"));
        // Two refreshes applied with no event loop in between (as a burst of views).
        releases.release(std::exchange(first.view, {}));
        releases.release(std::exchange(second.view, {}));
        QThreadPool::globalInstance()->waitForDone();
        QVERIFY(first.freed());
        QVERIFY(!second.freed());
        QTRY_VERIFY_WITH_TIMEOUT(second.freed(), 5000);

        // And the next one waits for the event loop again.
        WitnessedView third(QStringLiteral("billing"));
        releases.release(std::exchange(third.view, {}));
        QThreadPool::globalInstance()->waitForDone();
        QVERIFY(!third.freed());
        QTRY_VERIFY_WITH_TIMEOUT(third.freed(), 5000);
    }
};

QTEST_MAIN(TestReleaseAfterRepaint)
#include "TestReleaseAfterRepaint.moc"
