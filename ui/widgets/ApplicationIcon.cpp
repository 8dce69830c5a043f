#include "widgets/ApplicationIcon.h"

// Resources compiled into a static library are only linked in when something references
// them; Q_INIT_RESOURCE does, and it has to be called outside any namespace.
static void initGroupscopeResources() {
    Q_INIT_RESOURCE(groupscope);
}

namespace groupscope::ui {

QIcon applicationIcon() {
    static const QIcon icon = [] {
        initGroupscopeResources();
        QIcon loaded;
        for (int size : {16, 24, 32, 48, 64, 128, 256})
            loaded.addFile(QStringLiteral(":/icons/groupscope-%1.png").arg(size),
                           QSize(size, size));
        return loaded;
    }();
    return icon;
}

} // namespace groupscope::ui
