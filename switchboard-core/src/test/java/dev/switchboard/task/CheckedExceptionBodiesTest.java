package dev.switchboard.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.switchboard.Switchboard;
import dev.switchboard.testing.Runtimes;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Task bodies may throw checked exceptions ({@link TaskBody}, {@link Computation}): each reaches the enclosing
 * finish exactly as an unchecked one does, and a future fails with it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CheckedExceptionBodiesTest {
    static TaskRuntime rt;
    @TempDir
    static Path compiled;

    @BeforeAll
    static void start() {
        rt = Runtimes.workers(2);
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    /** A void method that throws a checked exception: a lambda calling it fits only {@link TaskBody}. */
    static void write(IOException failure) throws IOException {
        throw failure;
    }

    static String read(IOException failure) throws IOException {
        throw failure;
    }

    static String read() throws IOException {
        return "read";
    }

    @Test
    void aFinishBodyThrowingACheckedExceptionRethrowsItAsItself() {
        IOException failure = new IOException("finish body");
        assertThat(catchThrowable(() -> rt.finish(() -> write(failure)))).isSameAs(failure);
        assertThat(catchThrowable(() -> rt.finish(Duration.ofSeconds(20), () -> write(failure)))).isSameAs(failure);
    }

    @Test
    void anAsyncBodyThrowingACheckedExceptionReachesTheFinishAsAnUncheckedOneDoes() {
        IOException checked = new IOException("async body");
        IllegalStateException unchecked = new IllegalStateException("async body");

        assertThat(catchThrowable(() -> rt.finish(() -> rt.async(() -> write(checked))))).isSameAs(checked);
        assertThat(catchThrowable(() -> rt.finish(() -> rt.async(() -> {
            throw unchecked;
        })))).isSameAs(unchecked);

        Throwable both = catchThrowable(() -> rt.finish(() -> {
            rt.async(() -> write(checked));
            rt.async(() -> {
                throw unchecked;
            });
        }));
        assertThat(both).isInstanceOf(MultiException.class);
        assertThat(((MultiException) both).failures()).containsExactlyInAnyOrder(checked, unchecked);
        assertThat(both.getSuppressed()).containsExactlyInAnyOrder(checked, unchecked);
    }

    @Test
    void aFailedComputationFailsTheFutureAndReachesTheFinish() {
        IOException failure = new IOException("computation");
        AtomicReference<TaskFuture<String>> future = new AtomicReference<>();

        Throwable thrown = catchThrowable(() -> rt.finish(() -> future.set(rt.future(() -> read(failure)))));

        assertThat(thrown).isSameAs(failure);
        assertThat(future.get().isDone()).isTrue();
        assertThatThrownBy(() -> future.get().get()).isInstanceOf(CompletionException.class).cause()
                .isSameAs(failure);
        assertThatThrownBy(() -> future.get().get(Duration.ofSeconds(1))).isInstanceOf(CompletionException.class)
                .cause().isSameAs(failure);
        assertThat(future.get().toCompletableFuture()).isCompletedExceptionally();
    }

    @Test
    void aComputationThatReturnsGivesItsValue() throws Exception {
        String text = rt.finish(() -> {
            TaskFuture<String> f = rt.future(() -> read());
            return f.get();
        });
        assertThat(text).isEqualTo("read");
    }

    @Test
    void anAsyncAwaitBodyThrowingACheckedExceptionReachesTheFinish() {
        IOException failure = new IOException("asyncAwait body");
        DataDrivenFuture<Integer> input = new DataDrivenFuture<>();

        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            rt.asyncAwait(input, () -> write(failure));
            input.put(1);
        }));

        assertThat(thrown).isSameAs(failure);
        assertThat(catchThrowable(() -> rt.finish(() -> rt.asyncAwait(List.of(), () -> write(failure)))))
                .isSameAs(failure);
    }

    @Test
    void theStaticFormsTakeTheSameBodies() {
        IOException failure = new IOException("static");
        Throwable thrown = catchThrowable(() -> rt.finish(() -> {
            TaskFuture<String> f = Switchboard.future(() -> read(failure));
            Switchboard.asyncAwait(f, () -> {
                assertThatThrownBy(f::get).isInstanceOf(CompletionException.class).cause().isSameAs(failure);
                write(failure);
            });
        }));
        // the computation and the asyncAwait body both failed with it: the same exception, one failure
        assertThat(thrown).isSameAs(failure);

        assertThat(catchThrowable(() -> Switchboard.finish(() -> Switchboard.async(() -> write(failure)))))
                .isSameAs(failure);
        assertThat(catchThrowable(() -> Switchboard.finish(() -> read(failure)))).isSameAs(failure);
    }

    // ------------------------------------------------------------------------------------------ overloads

    /** Compiles {@code members} in a class that can use the runtime; returns the errors, with their lines. */
    private static List<String> compileErrors(String members) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        String source = """
                import dev.switchboard.task.*;
                import static dev.switchboard.Switchboard.*;
                import java.io.IOException;

                class Probe {
                    static void write() throws IOException { }
                    static String read() throws IOException { return ""; }
                    static String overloaded() { return ""; }
                    static String overloaded(String name) { return name; }
                %s
                }
                """.formatted(members);
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///Probe.java"),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        String classes = Path.of(TaskRuntime.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        javac.getTask(null, null, diagnostics, List.of("-classpath", classes, "-proc:none", "-d", compiled.toString()),
                null, List.of(file)).call();
        return diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                .map(d -> d.getLineNumber() + ": " + d.getMessage(null)).toList();
    }

    @Test
    void voidBodiesPickTaskBodyAndValueBodiesPickCallable() throws Exception {
        List<String> errors = compileErrors("""
                    void runtime(TaskRuntime rt) {
                        rt.finish(() -> write());                            // TaskBody
                        rt.finish(() -> { write(); });                       // TaskBody
                        rt.finish(Probe::write);                             // TaskBody
                        rt.finish(java.time.Duration.ofSeconds(1), () -> write());
                        String a = rt.finish(() -> read());                  // Callable: returns the value
                        String b = rt.finish(() -> { write(); return "b"; });
                        String c = rt.finish(Probe::read);                   // an exact method reference
                        rt.async(() -> write());
                        rt.async(() -> read());                              // the value is dropped
                        TaskFuture<String> f = rt.future(() -> read());
                        TaskFuture<String> g = rt.future(Probe::read);
                        rt.asyncAwait(f, () -> write());
                        rt.asyncAwait(f, g, () -> write());
                        rt.asyncAwait(f, g, f, () -> write());
                        rt.asyncAwait(java.util.List.of(f, g), () -> write());
                    }

                    void statics() {
                        finish(() -> write());
                        String a = finish(() -> read());
                        finish(java.time.Duration.ofSeconds(1), () -> write());
                        async(() -> write());
                        TaskFuture<String> f = future(() -> read());
                        asyncAwait(f, () -> write());
                    }
                """);
        assertThat(errors).isEmpty();
    }

    @Test
    void aReferenceToAnOverloadedMethodIsAmbiguousAndTheLambdaIsNot() throws Exception {
        assertThat(compileErrors("""
                    void m(TaskRuntime rt) {
                        rt.finish(Probe::overloaded);
                    }
                """)).singleElement().asString().contains("ambiguous");
        assertThat(compileErrors("""
                    void m(TaskRuntime rt) {
                        String s = rt.finish(() -> overloaded());
                    }
                """)).isEmpty();
    }

    @Test
    void aRunnableIsNoTaskBodyButItsReferenceIs() throws Exception {
        assertThat(compileErrors("""
                    void m(TaskRuntime rt, Runnable r) {
                        rt.async(r);
                    }
                """)).singleElement().asString().contains("Runnable");
        assertThat(compileErrors("""
                    void m(TaskRuntime rt, Runnable r) {
                        rt.async(r::run);
                    }
                """)).isEmpty();
    }
}
