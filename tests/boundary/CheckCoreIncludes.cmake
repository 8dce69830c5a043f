# The layer boundary, checked in the sources: no file under SOURCE_DIR includes a header of a
# Qt GUI module or QCustomPlot, whatever the spelling (<QWidget>, <QtWidgets/QWidget>,
# <QtGui>, <qpixmap.h>, "qcustomplot.h"), and no CMake file there links such a module.
# Building core_boundary_probe proves only that <QWidget> is not on core's include path;
# <QtGui/...> headers come along with Qt6::Core's include directories, so they would build.
#
#   cmake -DSOURCE_DIR=core -DQT_HEADERS_DIR=/usr/include/.../qt6 [-DEXPECT_VIOLATIONS=N]
#         -P CheckCoreIncludes.cmake
#
# Fails listing each offending file:line. With EXPECT_VIOLATIONS it checks itself instead:
# it passes only when it finds exactly that many (tests/boundary holds planted includes).
cmake_minimum_required(VERSION 3.25)

if(NOT IS_DIRECTORY "${SOURCE_DIR}")
  message(FATAL_ERROR "SOURCE_DIR '${SOURCE_DIR}' is not a directory")
endif()

set(gui_modules QtGui QtWidgets QtOpenGL QtOpenGLWidgets QtPrintSupport QtSvg QtSvgWidgets
                QtQuick QtQuickWidgets QtQml)
list(JOIN gui_modules "|" gui_module_alternatives)

# Bare header names (<QColor>, <qwidget.h>) of the GUI modules installed here, minus any
# name QtCore also has.
if(QT_HEADERS_DIR AND IS_DIRECTORY "${QT_HEADERS_DIR}/QtCore")
  file(GLOB core_headers RELATIVE "${QT_HEADERS_DIR}/QtCore" "${QT_HEADERS_DIR}/QtCore/*")
  foreach(name IN LISTS core_headers)
    set("core_header_${name}" TRUE)
  endforeach()
  foreach(module IN LISTS gui_modules)
    file(GLOB module_headers RELATIVE "${QT_HEADERS_DIR}/${module}"
         "${QT_HEADERS_DIR}/${module}/*")
    foreach(name IN LISTS module_headers)
      if(NOT IS_DIRECTORY "${QT_HEADERS_DIR}/${module}/${name}" AND NOT core_header_${name})
        set("gui_header_${name}" ${module})
      endif()
    endforeach()
  endforeach()
else()
  message(FATAL_ERROR "QT_HEADERS_DIR '${QT_HEADERS_DIR}' has no QtCore: cannot tell which "
                      "bare header names belong to GUI modules")
endif()

# The lines of a file as a list, one element per line (empty ones too), with the characters
# that would split or join CMake list elements ([ ] ; \) replaced: file(STRINGS) splits a
# line at a semicolon and joins lines after an unbalanced bracket, so its line numbers lie.
function(read_lines path out)
  file(READ "${path}" content)
  string(REPLACE "\\" "/" content "${content}")
  string(REPLACE ";" "," content "${content}")
  string(REPLACE "[" "(" content "${content}")
  string(REPLACE "]" ")" content "${content}")
  string(REPLACE "\n" ";" content "${content}")
  set(${out} "${content}" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE sources LIST_DIRECTORIES false
     "${SOURCE_DIR}/*.h" "${SOURCE_DIR}/*.hpp" "${SOURCE_DIR}/*.cpp" "${SOURCE_DIR}/*.cc"
     "${SOURCE_DIR}/*.cxx" "${SOURCE_DIR}/*.inl")
set(violations "")
set(violation_count 0)
foreach(source IN LISTS sources)
  read_lines("${source}" lines)
  set(line_number 0)
  foreach(line IN LISTS lines)
    math(EXPR line_number "${line_number} + 1")
    # Only real directives: a commented-out include is not one.
    if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"]")
      continue()
    endif()
    set(header "${CMAKE_MATCH_1}")
    set(why "")
    if(header MATCHES "^(${gui_module_alternatives})(/|$)")
      set(why "a header of ${CMAKE_MATCH_1}")
    elseif(header MATCHES "(^|/)qcustomplot\\.h$")
      set(why "QCustomPlot")
    elseif(DEFINED "gui_header_${header}")
      set(why "a header of ${gui_header_${header}}")
    endif()
    if(why)
      file(RELATIVE_PATH shown "${SOURCE_DIR}" "${source}")
      string(APPEND violations "  ${shown}:${line_number}: #include <${header}> (${why})\n")
      math(EXPR violation_count "${violation_count} + 1")
    endif()
  endforeach()
endforeach()

file(GLOB_RECURSE cmake_files LIST_DIRECTORIES false
     "${SOURCE_DIR}/CMakeLists.txt" "${SOURCE_DIR}/*.cmake")
foreach(cmake_file IN LISTS cmake_files)
  read_lines("${cmake_file}" lines)
  set(line_number 0)
  foreach(line IN LISTS lines)
    math(EXPR line_number "${line_number} + 1")
    string(REGEX REPLACE "#.*" "" code "${line}")
    if(code MATCHES "(Qt6?::(Gui|Widgets|OpenGL|OpenGLWidgets|PrintSupport|Svg|SvgWidgets|Quick|QuickWidgets|Qml)|QCustomPlot[A-Za-z0-9]*::)")
      file(RELATIVE_PATH shown "${SOURCE_DIR}" "${cmake_file}")
      string(APPEND violations "  ${shown}:${line_number}: links ${CMAKE_MATCH_1}\n")
      math(EXPR violation_count "${violation_count} + 1")
    endif()
  endforeach()
endforeach()

if(DEFINED EXPECT_VIOLATIONS)
  if(NOT violation_count EQUAL EXPECT_VIOLATIONS)
    message(FATAL_ERROR "the check found ${violation_count} GUI includes in ${SOURCE_DIR}, "
                        "expected ${EXPECT_VIOLATIONS}:\n${violations}")
  endif()
  message(STATUS "found the ${violation_count} planted GUI includes:\n${violations}")
elseif(violation_count GREATER 0)
  message(FATAL_ERROR "core must not use GUI modules (it links Qt6::Core and librdkafka "
                      "only); ${violation_count} violation(s) under ${SOURCE_DIR}:\n"
                      "${violations}")
else()
  list(LENGTH sources source_count)
  message(STATUS "${source_count} files under ${SOURCE_DIR}: no GUI module headers")
endif()
