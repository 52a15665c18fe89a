package dev.switchboard.testkit;

import java.util.Optional;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link SwitchboardTest}: resolves {@link TestKit} parameters of a test method (and of
 * its {@code @BeforeEach} methods: the same kit) and closes the kit after the test, which fails the test if the kit
 * finds something left behind. Register it with {@code @SwitchboardTest} (or {@code @ExtendWith}, for the default
 * kit).
 */
public final class SwitchboardExtension implements ParameterResolver, AfterEachCallback {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(SwitchboardExtension.class);
    private static final String KIT = "kit";

    /** Made by JUnit. */
    public SwitchboardExtension() {
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TestKit.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        if (context.getTestMethod().isEmpty()) {
            throw new ParameterResolutionException("a TestKit is given to test methods and their @BeforeEach"
                    + " methods (one per test), not to " + parameter.getDeclaringExecutable());
        }
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(KIT, k -> build(context), TestKit.class);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        TestKit kit = context.getStore(NAMESPACE).remove(KIT, TestKit.class);
        if (kit != null) {
            // an AssertionError here fails the test; after a failure, the kit only closes: no waiting, no pile-on
            kit.close(context.getExecutionException().isEmpty());
        }
    }

    private static TestKit build(ExtensionContext context) {
        Optional<SwitchboardTest> config = AnnotationSupport.findAnnotation(context.getTestMethod(),
                SwitchboardTest.class);
        if (config.isEmpty()) {
            config = AnnotationSupport.findAnnotation(context.getTestClass(), SwitchboardTest.class);
        }
        TestKit.Builder b = TestKit.builder().name("testkit-" + context.getRequiredTestMethod().getName());
        config.ifPresent(c -> {
            b.workers(c.workers()).checkThreads(c.checkThreads()).ignoreThreads(c.ignoreThreads());
            if (c.manualClock()) {
                b.manualClock();
            }
        });
        return b.build();
    }
}
