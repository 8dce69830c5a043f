#pragma once

#include <QByteArray>
#include <QString>

namespace groupscope::ui {

// What a window remembers of the connection profile it shows: where it was, how its tables
// were sized and sorted, what the list was filtered by, which group was open.
struct WindowLayout {
    QByteArray geometry;
    QByteArray splitter;
    QByteArray docks;
    QByteArray groupColumns; // widths, order and the sort column of the group list
    QByteArray partitionColumns;
    QByteArray offsetColumns;
    QString filterText;
    int stateFilter = 0; // the state combo's index
    int browserTab = 0;  // Groups or Topics
    QString openGroup;
};

// Reads and writes WindowLayouts with QSettings, one per profile ("profiles/NAME/window").
// A profile that has none yet starts from the window layout saved last (of any profile),
// but with no filter and no open group: those belong to the profile's cluster.
class WindowLayoutStore {
public:
    static WindowLayout load(const QString& profileName);
    static void save(const QString& profileName, const WindowLayout& layout);
};

} // namespace groupscope::ui
