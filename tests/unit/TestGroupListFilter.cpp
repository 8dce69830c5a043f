// `list --state [S,...] --type [T,...]` as Kafka 4.4's kafka-consumer-groups reads it:
// columns when given, filters when given a list, any case, a clear error naming what is
// wrong and what is valid.

#include "cli/GroupListFilter.h"

#include <QTest>

using groupscope::cli::GroupListFilter;
using namespace groupscope::kafka;

namespace {

GroupListing listing(GroupState state, GroupType type) {
    return {QStringLiteral("g"), state, type, false, QString()};
}

} // namespace

class TestGroupListFilter : public QObject {
    Q_OBJECT
private slots:
    void withoutListsItOnlyAddsColumns() {
        QString error;
        const auto filter = GroupListFilter::parse(QString(), std::nullopt, &error);
        QVERIFY(filter);
        QVERIFY(filter->showsState());
        QVERIFY(!filter->showsType());
        QVERIFY(filter->accepts(listing(GroupState::Dead, GroupType::Unknown)));
    }

    void listsKeepOnlyThoseStatesAndTypesInAnyCase() {
        QString error;
        const auto filter = GroupListFilter::parse(QStringLiteral("STABLE,empty"),
                                                   QStringLiteral("consumer"), &error);
        QVERIFY2(filter, qPrintable(error));
        QVERIFY(filter->showsState() && filter->showsType());
        QVERIFY(filter->accepts(listing(GroupState::Stable, GroupType::Consumer)));
        QVERIFY(filter->accepts(listing(GroupState::Empty, GroupType::Consumer)));
        QVERIFY(!filter->accepts(listing(GroupState::Stable, GroupType::Classic)));
        QVERIFY(!filter->accepts(listing(GroupState::PreparingRebalance, GroupType::Consumer)));
    }

    void shareAndStreamsGroupsAreTypesToo() {
        QString error;
        const auto filter =
            GroupListFilter::parse(std::nullopt, QStringLiteral("Share,STREAMS"), &error);
        QVERIFY2(filter, qPrintable(error));
        QVERIFY(filter->accepts(listing(GroupState::Stable, GroupType::Share)));
        QVERIFY(filter->accepts(listing(GroupState::NotReady, GroupType::Streams)));
        QVERIFY(!filter->accepts(listing(GroupState::Stable, GroupType::Consumer)));
    }

    void anUnknownNameIsRefusedWithTheValidOnes() {
        QString error;
        QVERIFY(!GroupListFilter::parse(std::nullopt, QStringLiteral("classic,bogus"), &error));
        QCOMPARE(error, QStringLiteral("invalid types list 'classic,bogus'. Valid types are: "
                                       "Classic, Consumer, Share, Streams"));
        QVERIFY(!GroupListFilter::parse(QStringLiteral("sleeping"), std::nullopt, &error));
        QVERIFY2(error.startsWith(QStringLiteral("invalid state list 'sleeping'. Valid states "
                                                 "are: PreparingRebalance, CompletingRebalance")),
                 qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestGroupListFilter)
#include "TestGroupListFilter.moc"
