#include "cli/ArgumentList.h"

#include <QTest>

using groupscope::cli::ArgumentList;

class TestArgumentList : public QObject {
    Q_OBJECT
private slots:
    void optionsAnywhereInBothSpellings() {
        ArgumentList arguments({QStringLiteral("--group"), QStringLiteral("a"),
                                QStringLiteral("describe"), QStringLiteral("--group=b"),
                                QStringLiteral("--json")});
        QCOMPARE(arguments.takeValues(QStringLiteral("--group")),
                 (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QVERIFY(arguments.takeFlag(QStringLiteral("--json")));
        QVERIFY(!arguments.takeFlag(QStringLiteral("--json")));
        QCOMPARE(arguments.takePositional(), QStringLiteral("describe"));
        QVERIFY(arguments.remaining().isEmpty());
        QVERIFY(arguments.error().isEmpty());
    }

    void missingValueIsAnError() {
        ArgumentList arguments({QStringLiteral("--group"), QStringLiteral("--json")});
        QVERIFY(arguments.takeValues(QStringLiteral("--group")).isEmpty());
        QCOMPARE(arguments.error(), QStringLiteral("--group needs a value"));
        QCOMPARE(arguments.remaining(), QStringList{QStringLiteral("--json")});
    }

    void lastValueWins() {
        ArgumentList arguments(
            {QStringLiteral("--timeout"), QStringLiteral("1"), QStringLiteral("--timeout=2")});
        QCOMPARE(arguments.takeValue(QStringLiteral("--timeout")), QStringLiteral("2"));
        QVERIFY(!arguments.takeValue(QStringLiteral("--timeout")).has_value());
    }

    void anOptionalValueMayBeLeftOut() {
        ArgumentList arguments({QStringLiteral("--state"), QStringLiteral("--type"),
                                QStringLiteral("classic,consumer"), QStringLiteral("--json")});
        QCOMPARE(arguments.takeOptionalValue(QStringLiteral("--type")),
                 QStringLiteral("classic,consumer"));
        QCOMPARE(arguments.takeOptionalValue(QStringLiteral("--state")), QString());
        QVERIFY(!arguments.takeOptionalValue(QStringLiteral("--state")).has_value());
        QCOMPARE(arguments.remaining(), QStringList{QStringLiteral("--json")});
        ArgumentList last({QStringLiteral("--state=stable")});
        QCOMPARE(last.takeOptionalValue(QStringLiteral("--state")), QStringLiteral("stable"));
        QVERIFY(last.error().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestArgumentList)
#include "TestArgumentList.moc"
