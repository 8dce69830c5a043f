import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * Runs the test bed's Kafka command-line tools one after another in one JVM, so that a test
 * which asks Kafka's tool dozens of times pays for starting a JVM and loading Kafka's classes
 * once, not on every call. Each call sees what a fresh `java` process would: its own stdout
 * and stderr, the exit code the tool asks for, nothing written after it asked to exit, and
 * an empty stdin.
 *
 * Arguments: NAME=MAIN_CLASS pairs, the tools it may run (tests/kafka/kafka-tool-server
 * takes them from the test bed's wrapper scripts).
 *
 * Requests, one a line on stdin: the tool's NAME, then each argument Base64-encoded (so an
 * argument may hold any character), separated by tabs. Answers, on stdout: a line
 * "result EXIT OUT_BYTES ERR_BYTES", then the call's stdout and stderr bytes.
 * The server ends when stdin closes, which is when the test that started it ends.
 */
public final class KafkaToolServer {
    /** Thrown where the tool would have ended the JVM, to unwind its main method. */
    private static final class ToolExit extends Error {
        ToolExit() {
            super(null, null, false, false);
        }
    }

    /**
     * The stream behind System.out or System.err: the running call's buffer, or the server's
     * own stream between calls (for a client thread that logs late). Shared by every thread,
     * since a tool's admin client may print from its own.
     */
    private static final class CallStream extends OutputStream {
        private final OutputStream betweenCalls;
        private ByteArrayOutputStream call;
        private boolean exited;

        CallStream(OutputStream betweenCalls) {
            this.betweenCalls = betweenCalls;
        }

        synchronized void begin() {
            call = new ByteArrayOutputStream();
            exited = false;
        }

        /** A JVM would have ended here: what the tool writes after this is dropped. */
        synchronized void toolExited() {
            exited = true;
        }

        synchronized byte[] finish() {
            final byte[] bytes = call.toByteArray();
            call = null;
            return bytes;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            if (call == null)
                betweenCalls.write(b);
            else if (!exited)
                call.write(b);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
            if (call == null)
                betweenCalls.write(bytes, offset, length);
            else if (!exited)
                call.write(bytes, offset, length);
        }

        @Override
        public synchronized void flush() throws IOException {
            if (call == null)
                betweenCalls.flush();
        }
    }

    private static final CallStream out = new CallStream(new FileOutputStream(FileDescriptor.out));
    private static final CallStream err = new CallStream(new FileOutputStream(FileDescriptor.err));
    private static volatile Integer exitCode;

    public static void main(String[] arguments) throws Exception {
        final Map<String, String> mainClasses = new HashMap<>();
        for (String pair : arguments) {
            final int equals = pair.indexOf('=');
            mainClasses.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
        // The protocol's own streams, taken before System.out and System.err are replaced
        // (and before any Kafka class, or its logging, looks at them).
        final OutputStream answers = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out));
        final BufferedReader requests = new BufferedReader(
            new InputStreamReader(new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8));
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        interceptExit();

        String request;
        while ((request = requests.readLine()) != null) {
            final String[] words = request.split("\t", -1);
            final String[] toolArguments = new String[words.length - 1];
            for (int i = 1; i < words.length; ++i)
                toolArguments[i - 1] = new String(Base64.getDecoder().decode(words[i]), StandardCharsets.UTF_8);
            final int code = runTool(mainClasses.get(words[0]), words[0], toolArguments);
            final byte[] stdout = out.finish();
            final byte[] stderr = err.finish();
            answers.write(String.format("result %d %d %d\n", code, stdout.length, stderr.length)
                              .getBytes(StandardCharsets.US_ASCII));
            answers.write(stdout);
            answers.write(stderr);
            answers.flush();
        }
    }

    private static int runTool(String mainClass, String name, String[] toolArguments) {
        out.begin();
        err.begin();
        exitCode = null;
        System.setIn(new ByteArrayInputStream(new byte[0]));
        if (mainClass == null) {
            System.err.println("kafka-tool-server: no tool named " + name);
            return 127;
        }
        try {
            final Method main = Class.forName(mainClass).getMethod("main", String[].class);
            main.invoke(null, (Object) toolArguments);
        } catch (InvocationTargetException e) {
            if (!(e.getCause() instanceof ToolExit) && exitCode == null) {
                // What the JVM prints when main throws, and its exit code.
                System.err.print("Exception in thread \"main\" ");
                withoutServerFrames(e.getCause(), mainClass).printStackTrace();
                return 1;
            }
        } catch (ReflectiveOperationException e) {
            e.printStackTrace();
            return 1;
        } finally {
            System.out.flush();
            System.err.flush();
        }
        return exitCode == null ? 0 : exitCode;
    }

    /**
     * The exception as a fresh JVM would show it: its trace ends at the tool's main, without
     * the frames of this server and of reflection that called it.
     */
    private static Throwable withoutServerFrames(Throwable thrown, String mainClass) {
        final StackTraceElement[] frames = thrown.getStackTrace();
        for (int i = 0; i < frames.length; ++i) {
            if (frames[i].getClassName().equals(mainClass) && frames[i].getMethodName().equals("main")) {
                thrown.setStackTrace(java.util.Arrays.copyOf(frames, i + 1));
                break;
            }
        }
        return thrown;
    }

    /**
     * Kafka's tools end the JVM through Kafka's Exit class (org.apache.kafka.common.utils in
     * Kafka 3, .internals in Kafka 4), whose exit and halt procedures can be replaced.
     */
    private static void interceptExit() throws ReflectiveOperationException {
        Class<?> exit;
        try {
            exit = Class.forName("org.apache.kafka.common.utils.internals.Exit");
        } catch (ClassNotFoundException e) {
            exit = Class.forName("org.apache.kafka.common.utils.Exit");
        }
        final Class<?> procedure = Class.forName(exit.getName() + "$Procedure");
        final Object stopTheTool = Proxy.newProxyInstance(
            procedure.getClassLoader(), new Class<?>[] {procedure}, (proxy, method, methodArguments) -> {
                switch (method.getName()) {
                    case "execute":
                        break;
                    case "hashCode":
                        return System.identityHashCode(proxy);
                    case "equals":
                        return proxy == methodArguments[0];
                    default:
                        return "KafkaToolServer's exit";
                }
                if (exitCode == null) {
                    exitCode = (Integer) methodArguments[0];
                    out.toolExited();
                    err.toolExited();
                }
                throw new ToolExit();
            });
        exit.getMethod("setExitProcedure", procedure).invoke(null, stopTheTool);
        exit.getMethod("setHaltProcedure", procedure).invoke(null, stopTheTool);
    }
}
