/**
 * Switchboard's core: the task runtime (async/finish, futures, data-driven futures and controls), actors and
 * selectors, parallel actor monitors, and the dispatch seam for actor kinds built outside the core.
 *
 * <p>The module exports its API packages and nothing else; {@code dev.switchboard.internal} (the scheduler,
 * the spawn tree, the task context, the accessors between packages) stays inside. It needs no module but
 * {@code java.base}: its logging is {@link System.Logger}.
 */
module dev.switchboard.core {
    exports dev.switchboard;
    exports dev.switchboard.task;
    exports dev.switchboard.actor;
    exports dev.switchboard.monitor;
    // The seam for actor kinds outside the core. Its users are meant to be the modules dev.switchboard.stm and
    // dev.switchboard.distributed, and the export should become qualified to them ("exports ... to ..."); they do
    // not exist yet, and a qualified export to a module that is not there only warns, so for now it is open to all.
    exports dev.switchboard.spi;
}
