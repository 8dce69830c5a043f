# Packaging: install rules for the desktop integration files, and CPack for a Debian
# package and a relocatable tar.gz. Included at the end of the top-level CMakeLists.txt.
#
#   cmake --build <build dir> --target package   ->  <build dir>/packages/
#     groupscope_<version>-<revision>_<arch>.deb   (installs to /usr)
#     groupscope-<version>-linux-<arch>.tar.gz      (bin/ and share/, runs from any directory)
#
# The version comes from project(VERSION) only. resources/CHANGELOG.md holds the release
# notes; from it this file generates the Debian changelog, the AppStream <releases> and
# the release date printed in the man pages.

include(GNUInstallDirs)

set(GROUPSCOPE_PACKAGE_MAINTAINER "Groupscope Developers <dev@groupscope.invalid>"
  CACHE STRING "Maintainer field of the Debian package and its changelog")
set(GROUPSCOPE_DEBIAN_REVISION "1"
  CACHE STRING "Debian revision appended to the project version in the .deb")

set(_resources ${PROJECT_SOURCE_DIR}/resources)
set(_generated ${PROJECT_BINARY_DIR}/packaging)
file(MAKE_DIRECTORY ${_generated})
set(_debian_version ${PROJECT_VERSION}-${GROUPSCOPE_DEBIAN_REVISION})

# --- Release notes: resources/CHANGELOG.md -> Debian changelog and AppStream releases ---

set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${_resources}/CHANGELOG.md)

# "Mon, 30 Nov 2026 12:00:00 +0000" for a yyyy-mm-dd date, as debian/changelog wants it.
function(_groupscope_rfc2822_date isoDate outVar)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env LC_ALL=C TZ=UTC
                    date -u -R -d "${isoDate} 12:00:00"
    OUTPUT_VARIABLE formatted OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "Packaging: cannot format the date ${isoDate} of resources/CHANGELOG.md")
  endif()
  set(${outVar} "${formatted}" PARENT_SCOPE)
endfunction()

# Wraps text into "  * first line\n    next line\n" at 78 columns.
function(_groupscope_debian_bullet text outVar)
  string(REGEX REPLACE " +" ";" words "${text}")
  set(result "  *")
  set(line "  *")
  foreach(word IN LISTS words)
    string(LENGTH "${line} ${word}" length)
    if(length GREATER 78 AND NOT line STREQUAL "    " AND NOT line STREQUAL "  *")
      string(APPEND result "\n    ${word}")
      set(line "    ${word}")
    else()
      string(APPEND result " ${word}")
      string(APPEND line " ${word}")
    endif()
  endforeach()
  set(${outVar} "${result}\n" PARENT_SCOPE)
endfunction()

function(_groupscope_xml_escape text outVar)
  string(REPLACE "&" "&amp;" text "${text}")
  string(REPLACE "<" "&lt;" text "${text}")
  string(REPLACE ">" "&gt;" text "${text}")
  set(${outVar} "${text}" PARENT_SCOPE)
endfunction()

file(READ ${_resources}/CHANGELOG.md _changelog)
# CMake lists split on ';' and treat '[' ']' specially: park them while splitting lines.
string(REPLACE ";" "@SEMICOLON@" _changelog "${_changelog}")
string(REPLACE "[" "@LBRACKET@" _changelog "${_changelog}")
string(REPLACE "]" "@RBRACKET@" _changelog "${_changelog}")
string(REPLACE "\n" ";" _changelog_lines "${_changelog}")
list(APPEND _changelog_lines "## end") # flushes the last release

set(_releases_xml "")
set(_debian_changelog "")
set(_release_version "")
set(_release_items "")
set(GROUPSCOPE_RELEASE_DATE "")
set(_newest_version "")
set(_item "")
foreach(_line IN LISTS _changelog_lines)
  set(_flush_item OFF)
  set(_flush_release OFF)
  if(_line MATCHES "^## ")
    set(_flush_item ON)
    set(_flush_release ON)
  elseif(_line MATCHES "^- +(.*)$")
    set(_flush_item ON)
    set(_next_item "${CMAKE_MATCH_1}")
  elseif(_line MATCHES "^ +([^ ].*)$" AND NOT _item STREQUAL "")
    string(APPEND _item " ${CMAKE_MATCH_1}")
  endif()

  if(_flush_item AND NOT _item STREQUAL "" AND NOT _release_version STREQUAL "")
    string(REPLACE "@LBRACKET@" "[" _item "${_item}")
    string(REPLACE "@RBRACKET@" "]" _item "${_item}")
    # Inline markdown code marks mean nothing in either output.
    string(REPLACE "`" "" _item "${_item}")
    _groupscope_xml_escape("${_item}" _item_xml)
    string(REPLACE "@SEMICOLON@" ";" _item_xml "${_item_xml}")
    string(APPEND _release_xml_items "          <li>${_item_xml}</li>\n")
    _groupscope_debian_bullet("${_item}" _bullet)
    string(REPLACE "@SEMICOLON@" ";" _bullet "${_bullet}")
    string(APPEND _release_debian_items "${_bullet}")
  endif()
  if(_flush_item)
    set(_item "")
  endif()

  if(_flush_release AND NOT _release_version STREQUAL "")
    string(APPEND _releases_xml
      "    <release version=\"${_release_version}\" date=\"${_release_date}\">\n"
      "      <description>\n        <ul>\n${_release_xml_items}        </ul>\n"
      "      </description>\n    </release>\n")
    if(_release_version STREQUAL PROJECT_VERSION)
      set(_entry_version ${_debian_version})
    else()
      set(_entry_version ${_release_version}-1)
    endif()
    _groupscope_rfc2822_date(${_release_date} _rfc_date)
    string(APPEND _debian_changelog
      "groupscope (${_entry_version}) unstable; urgency=medium\n\n"
      "${_release_debian_items}\n"
      " -- ${GROUPSCOPE_PACKAGE_MAINTAINER}  ${_rfc_date}\n\n")
    set(_release_version "")
  endif()

  if(_line MATCHES "^## +([0-9][^ ]*) +\\(([0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9])\\) *$")
    set(_release_version "${CMAKE_MATCH_1}")
    set(_release_date "${CMAKE_MATCH_2}")
    set(_release_xml_items "")
    set(_release_debian_items "")
    if(_newest_version STREQUAL "")
      set(_newest_version "${_release_version}")
      set(_newest_date "${_release_date}")
    endif()
    if(_release_version STREQUAL PROJECT_VERSION)
      set(GROUPSCOPE_RELEASE_DATE "${_release_date}")
    endif()
  endif()
  if(DEFINED _next_item)
    set(_item "${_next_item}")
    unset(_next_item)
  endif()
endforeach()

if(NOT _newest_version STREQUAL PROJECT_VERSION)
  message(WARNING "Packaging: resources/CHANGELOG.md has no entry '## ${PROJECT_VERSION} "
    "(YYYY-MM-DD)' on top (newest is '${_newest_version}'). Add one before packaging; "
    "the packaging test fails until then.")
endif()
if(GROUPSCOPE_RELEASE_DATE STREQUAL "")
  set(GROUPSCOPE_RELEASE_DATE "${_newest_date}")
endif()
string(REPLACE "@SEMICOLON@" ";" _debian_changelog "${_debian_changelog}")
string(REGEX REPLACE "\n\n$" "\n" _debian_changelog "${_debian_changelog}")
file(WRITE ${_generated}/changelog.Debian "${_debian_changelog}")
set(GROUPSCOPE_APPSTREAM_RELEASES "${_releases_xml}")
string(REGEX REPLACE "\n$" "" GROUPSCOPE_APPSTREAM_RELEASES "${GROUPSCOPE_APPSTREAM_RELEASES}")
configure_file(${_resources}/org.groupscope.Groupscope.metainfo.xml.in
  ${_generated}/org.groupscope.Groupscope.metainfo.xml @ONLY)
configure_file(${_resources}/groupscope-cli.1.in ${_generated}/groupscope-cli.1 @ONLY)
configure_file(${_resources}/groupscope.1.in ${_generated}/groupscope.1 @ONLY)
configure_file(${_resources}/CHANGELOG.md ${_generated}/changelog COPYONLY)

# --- License: resources/LICENSE -> Debian's machine-readable copyright file ---

file(READ ${_resources}/LICENSE _license)
string(REGEX REPLACE "^MIT License\n\n" "" _license "${_license}")
string(REGEX REPLACE "\n+$" "" _license "${_license}")
string(REPLACE "\n\n" "\n.\n" _license "${_license}")
string(REPLACE "\n" "\n " _license "${_license}")
file(WRITE ${_generated}/copyright
"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: Groupscope

Files: *
Copyright: 2026 The Groupscope developers
License: Expat

License: Expat
 ${_license}
")
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${_resources}/LICENSE)

# --- gzip -9n: compressed without name or timestamp, as Debian policy wants ---

find_program(GROUPSCOPE_GZIP gzip REQUIRED)
foreach(_file groupscope-cli.1 groupscope.1 changelog changelog.Debian)
  execute_process(COMMAND ${GROUPSCOPE_GZIP} -9nkf ${_generated}/${_file}
    RESULT_VARIABLE _failed)
  if(_failed)
    message(FATAL_ERROR "Packaging: gzip failed on ${_generated}/${_file}")
  endif()
endforeach()

# --- Install rules (relative destinations: the same tree serves /usr and the tarball) ---

install(FILES ${_generated}/groupscope-cli.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${_generated}/copyright ${_generated}/changelog.gz ${_generated}/changelog.Debian.gz
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The exporter's systemd unit, as an example to copy (it needs the cluster's address first).
install(FILES ${CMAKE_CURRENT_LIST_DIR}/groupscope-exporter.service
  DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
if(TARGET groupscope)
  install(FILES ${_generated}/groupscope.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${_resources}/org.groupscope.Groupscope.desktop
    DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${_generated}/org.groupscope.Groupscope.metainfo.xml
    DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
  foreach(_size 16 24 32 48 64 128 256)
    install(FILES ${_resources}/icons/groupscope-${_size}.png
      DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${_size}x${_size}/apps
      RENAME groupscope.png)
  endforeach()
  install(FILES ${_resources}/icons/groupscope.svg
    DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()

# --- CPack ---

set(CPACK_PACKAGE_NAME groupscope)
set(CPACK_PACKAGE_VENDOR "The Groupscope developers")
set(CPACK_PACKAGE_CONTACT "${GROUPSCOPE_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "inspector for Apache Kafka consumer groups")
set(CPACK_PACKAGE_DESCRIPTION "Groupscope lists the consumer groups of an Apache Kafka cluster with
their state, members, assignments and lag, and keeps the view live
while the groups rebalance and commit. Offsets can be reset to an
offset, a time, the start or end of the log, or by a shift, with a
preview, an audit log and undo.

This package contains the desktop application (groupscope) and the
command-line tool (groupscope-cli), which accepts the options of
Kafka's own kafka-consumer-groups tool.")
set(CPACK_RESOURCE_FILE_LICENSE ${_resources}/LICENSE)
set(CPACK_GENERATOR DEB TGZ)
set(CPACK_OUTPUT_FILE_PREFIX ${PROJECT_BINARY_DIR}/packages)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_CHECKSUM SHA256)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
  OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

# The tarball: one top-level directory with bin/ and share/. The binaries carry no RPATH
# (CMake drops the build-tree one at install) and look up only system libraries, so the
# directory can be unpacked and run anywhere.
string(TOLOWER "${CMAKE_SYSTEM_NAME}" _system)
set(CPACK_PACKAGE_FILE_NAME ${CPACK_PACKAGE_NAME}-${PROJECT_VERSION}-${_system}-${CMAKE_SYSTEM_PROCESSOR})
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)

# The Debian package: runtime dependencies computed by dpkg-shlibdeps from the binaries.
set(CPACK_DEBIAN_PACKAGE_NAME groupscope)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE ${GROUPSCOPE_DEBIAN_REVISION})
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Qt loads its SQLite driver (the write journal) as a plug-in, which dpkg-shlibdeps cannot see.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite")
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${GROUPSCOPE_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

include(CPack)
