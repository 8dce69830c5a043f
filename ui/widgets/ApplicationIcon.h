#pragma once

#include <QIcon>

namespace groupscope::ui {

// Groupscope's icon from the compiled-in resources: PNG renditions of
// resources/icons/groupscope.svg, because Qt's SVG plugin is an optional package.
QIcon applicationIcon();

} // namespace groupscope::ui
