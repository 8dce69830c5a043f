// Must NOT compile: groupscope_core links Qt6::Core only, so widget headers are not on
// its include path. The ctest `core_cannot_include_widgets` builds this and expects failure.
#include <QWidget>

int coreBoundaryProbe() {
    return sizeof(QWidget);
}
