// Prints the schemas of Kafka's generated message classes (kafka-clients'
// org.apache.kafka.common.message.*Data, and group-coordinator's
// org.apache.kafka.coordinator.group.generated.* for the records of __consumer_offsets,
// built from the same JSON specifications as Groupscope's), one line per field and version, in the form TestSpecsAgainstKafka compares
// with Groupscope's own specs:
//
//   ListGroupsResponse v5 groups.grouptype COMPACT_STRING
//   ConsumerGroupDescribeResponse v0 groups.members.memberepoch INT32
//   SomeRequest v3 somefield COMPACT_STRING tag=0
//
// Arguments: message names (ListGroupsRequest ...). Names are lower case without
// underscores (Kafka's schemas spell them in snake case, its JSON specs in camel case);
// types are Kafka's type names, arrays as [COMPACT_][NULLABLE_]ARRAY(ELEMENT), nested
// structures as STRUCT followed by their fields, record sets as bytes. Each version starts
// with a line "MESSAGE vN"; versions the jar no longer has (removed from Kafka) print
// "MESSAGE vN removed".
import java.lang.reflect.Field;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.protocol.types.BoundField;
import org.apache.kafka.common.protocol.types.CompactArrayOf;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.TaggedFields;
import org.apache.kafka.common.protocol.types.Type;

public class PrintMessageSchemas {
    public static void main(String[] args) throws Exception {
        for (String message : args) {
            Class<?> data = messageClass(message);
            Schema[] schemas = (Schema[]) data.getField("SCHEMAS").get(null);
            for (int version = 0; version < schemas.length; ++version) {
                String prefix = message + " v" + version;
                if (schemas[version] == null) {
                    System.out.println(prefix + " removed");
                    continue;
                }
                System.out.println(prefix); // a version may have no fields at all
                printFields(prefix, "", schemas[version]);
            }
        }
    }

    // Requests and responses are MessageData classes; structures embedded as bytes in
    // other messages (ConsumerProtocolAssignment) are named as they are; the records the
    // group coordinator writes to __consumer_offsets (OffsetCommitValue, ShareGroup...Key)
    // are the group-coordinator jar's generated classes.
    static Class<?> messageClass(String message) throws ClassNotFoundException {
        String prefix = "org.apache.kafka.common.message." + message;
        try {
            return Class.forName(prefix + "Data");
        } catch (ClassNotFoundException notData) {
            try {
                return Class.forName(prefix);
            } catch (ClassNotFoundException notEmbedded) {
                return Class.forName("org.apache.kafka.coordinator.group.generated." + message);
            }
        }
    }

    static String normalName(String name) {
        return name.replace("_", "").toLowerCase();
    }

    static void printFields(String prefix, String path, Schema schema) throws Exception {
        for (BoundField bound : schema.fields()) {
            Type type = bound.def.type;
            if (type instanceof TaggedFields) {
                for (Map.Entry<Integer, org.apache.kafka.common.protocol.types.Field> tagged :
                     taggedFields((TaggedFields) type).entrySet())
                    printField(prefix, path, tagged.getValue().name, tagged.getValue().type,
                               " tag=" + tagged.getKey());
                continue;
            }
            printField(prefix, path, bound.def.name, type, "");
        }
    }

    static void printField(String prefix, String path, String name, Type type, String suffix)
            throws Exception {
        String fieldPath = path + normalName(name);
        System.out.println(prefix + " " + fieldPath + " " + typeName(type) + suffix);
        Schema nested = nestedSchema(type);
        if (nested != null)
            printFields(prefix, fieldPath + ".", nested);
    }

    static Schema nestedSchema(Type type) {
        if (type instanceof Schema)
            return (Schema) type;
        if (type.isArray() && type.arrayElementType().get() instanceof Schema)
            return (Schema) type.arrayElementType().get();
        return null;
    }

    static String typeName(Type type) {
        if (type instanceof Schema)
            return type.isNullable() ? "NULLABLE_STRUCT" : "STRUCT";
        if (type.isArray()) {
            Type element = type.arrayElementType().get();
            return (type instanceof CompactArrayOf ? "COMPACT_" : "")
                + (type.isNullable() ? "NULLABLE_" : "") + "ARRAY(" + typeName(element) + ")";
        }
        // A record set is bytes on the wire (Groupscope decodes the batches itself).
        return type.toString().replace("RECORDS", "BYTES");
    }

    // TaggedFields keeps its fields (tag -> field) private; the test bed reads them anyway.
    @SuppressWarnings("unchecked")
    static Map<Integer, org.apache.kafka.common.protocol.types.Field> taggedFields(
            TaggedFields tagged) throws Exception {
        for (Field member : TaggedFields.class.getDeclaredFields()) {
            if (Map.class.isAssignableFrom(member.getType())) {
                member.setAccessible(true);
                return new TreeMap<>((Map<Integer, org.apache.kafka.common.protocol.types.Field>)
                                         member.get(tagged));
            }
        }
        throw new IllegalStateException("TaggedFields has no map of its fields");
    }
}
