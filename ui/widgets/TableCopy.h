#pragma once

class QAbstractItemView;

namespace groupscope::ui {

// Ctrl+C (the platform's Copy) on `view` copies the selected rows as tab-separated text,
// with a header line, as shown on screen: paste lands cleanly in a spreadsheet or a ticket.
void enableCopyAsTsv(QAbstractItemView* view);

} // namespace groupscope::ui
