package dev.switchboard.monitor;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A message category ([PAM] §4.3): a named set of messages, defined outside the actor, that is also a
 * {@link LetterFilter}. Monitors are written against categories, not against message types, so one monitor (a
 * readers-writer monitor, say) serves any actor whose messages are tagged.
 *
 * <pre>{@code
 * Category reads = Category.of("read", Get.class, Contains.class);      // tagged by message type
 * Category writes = Category.of("write", msg -> msg instanceof Put);
 * new ReadersWriterMonitor(reads, writes).bind(dictionary);
 * }</pre>
 */
public final class Category implements LetterFilter {
    private final String name;
    private final String members;
    private final Predicate<Object> test;

    private Category(String name, String members, Predicate<Object> test) {
        this.name = Objects.requireNonNull(name, "name");
        this.members = members;
        this.test = Objects.requireNonNull(test, "members");
    }

    /** The category of every message that is an instance of one of {@code types}. */
    public static Category of(String name, Class<?>... types) {
        Class<?>[] copy = types.clone();
        if (copy.length == 0) {
            throw new IllegalArgumentException("category '" + name + "' needs at least one message type");
        }
        return new Category(name, Arrays.stream(copy).map(Class::getSimpleName).toList().toString(), message -> {
            for (Class<?> t : copy) {
                if (t.isInstance(message)) {
                    return true;
                }
            }
            return false;
        });
    }

    /** The category of every message for which {@code members} holds. */
    public static Category of(String name, Predicate<Object> members) {
        return new Category(name, "", members);
    }

    /** Whether {@code message} (a message as the actor's process method sees it) belongs to this category. */
    public boolean contains(Object message) {
        return test.test(message);
    }

    @Override
    public boolean pass(Letter letter) {
        return test.test(letter.message());
    }

    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return "Category(" + name + (members.isEmpty() ? "" : " " + members) + ")";
    }
}
