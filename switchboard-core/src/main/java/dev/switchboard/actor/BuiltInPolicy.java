package dev.switchboard.actor;

/** The built-in selection policies; the selector recognises them and selects without a virtual call. */
enum BuiltInPolicy implements SelectionPolicy {
    PRIORITY {
        @Override
        public int select(ReadySet ready, int lastServed) {
            return ready.first();
        }
    },
    ROUND_ROBIN {
        @Override
        public int select(ReadySet ready, int lastServed) {
            return ready.nextFrom(lastServed + 1);
        }
    }
}
