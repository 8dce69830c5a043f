#pragma once

#include "kafka/AdminClient.h"
#include "offsets/ResetApplier.h"
#include "offsets/WriteJournal.h"

namespace groupscope::offsets {

// What deleting one group would do, read from the cluster now: what the dry run shows.
struct GroupDeletionPreview {
    kafka::GroupDescription group;
    QList<kafka::CommittedOffset> commits; // they go with the group
    QString refusal;                       // why it would not be deleted; empty if it would
};

// Deletes whole groups (kafka-consumer-groups --delete), refusing up front what the broker
// would refuse: a group with members, named with them, and a group that does not exist.
// Every deletion is recorded in the write journal before it is sent, with the group's
// committed offsets (and their metadata) at that moment, each partition "before" its offset
// and "after" none, so the undo of the entry
// (ResetSession::undoOf) commits them again: the group is back where it stood, which no
// other tool can do after a delete. That holds for classic and consumer groups (a consumer
// group's members convert the re-created group back when they join); a share or streams
// group is deleted and recorded, but only its own members can create it again.
class GroupDeleter {
public:
    GroupDeleter(kafka::AdminClient& admin, WriteJournal& journal)
        : m_admin(admin)
        , m_journal(journal) {}

    // Network: one describe and one offset fetch for all the groups.
    kafka::Result<QList<GroupDeletionPreview>> preview(const QStringList& groupIds);
    // Deletes the groups that may be deleted, each on its own: one group's refusal or
    // failure does not stop the others, and each result says what happened to it.
    // `tool` is recorded in the journal entries.
    kafka::Result<QList<GroupApplyResult>> deleteGroups(const QStringList& groupIds,
                                                        const QString& tool);

    // Why a group described as `group` with `commits` is not to be deleted; empty if it is.
    static QString refusalFor(const kafka::GroupDescription& group, int commits);
    // The journal's description of deleting a group of `type`: "delete group", or "delete
    // share group" / "delete streams group" for the types commits cannot re-create.
    static QString auditDescription(kafka::GroupType type);
    // Whether `entry` deleted a share or streams group: committing its offsets again would
    // make a classic group of that name, not bring it back, so undo refuses it.
    static bool cannotRecreate(const JournalEntry& entry);

private:
    kafka::AdminClient& m_admin;
    WriteJournal& m_journal;
};

} // namespace groupscope::offsets
