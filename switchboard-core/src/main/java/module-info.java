/**
 * Switchboard's core: the task runtime (async/finish, futures, data-driven futures and controls), actors and
 * selectors, parallel actor monitors, and the dispatch seam for actor kinds built outside the core.
 *
 * <p>The module exports its API packages and nothing else; {@code dev.switchboard.internal} (the scheduler,
 * the spawn tree, the task context, the accessors between packages) stays inside, but for the test kit. It needs no module but
 * {@code java.base}: its logging is {@link System.Logger}, and its JFR events are made only where {@code jdk.jfr}
 * is present.
 */
@SuppressWarnings("module")          // the test kit is built after the core: javac cannot find it here
module dev.switchboard.core {
    // JFR events when the JDK has jdk.jfr and something records (internal.jfr, loaded only then): not needed to run.
    requires static jdk.jfr;

    exports dev.switchboard;
    exports dev.switchboard.task;
    exports dev.switchboard.actor;
    exports dev.switchboard.monitor;
    // The seam for actor kinds outside the core: the monitors, switchboard-stm and switchboard-distributed. Those
    // two run on the class path (Scala, Netty and Kryo are not all modules), where a qualified export ("exports ...
    // to ...") would not reach them, so the export is open to all; Seam's Javadoc says applications do not need it.
    exports dev.switchboard.spi;
    // The test kit drives a runtime's clock and scheduling decisions (ManualClock, DeterministicScheduler) and
    // hears its events; nothing else outside the core reaches the machinery.
    exports dev.switchboard.internal to dev.switchboard.testkit;
}
