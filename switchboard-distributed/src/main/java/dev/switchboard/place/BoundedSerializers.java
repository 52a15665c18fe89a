package dev.switchboard.place;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.BooleanArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.ByteArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.CharArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.DoubleArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.FloatArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.IntArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.LongArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.ObjectArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.ShortArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.StringArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultSerializers.ArraysAsListSerializer;
import com.esotericsoftware.kryo.serializers.DefaultSerializers.ConcurrentSkipListMapSerializer;
import com.esotericsoftware.kryo.serializers.DefaultSerializers.PriorityQueueSerializer;
import com.esotericsoftware.kryo.serializers.DefaultSerializers.TreeMapSerializer;
import com.esotericsoftware.kryo.serializers.DefaultSerializers.TreeSetSerializer;
import com.esotericsoftware.kryo.serializers.ImmutableCollectionsSerializers;
import com.esotericsoftware.kryo.serializers.MapSerializer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Kryo's serializers for the types whose reading allocates by a length read from the frame, each with that length
 * admitted by the {@link BoundedInput} first, and admitted at the same cost by the {@link BoundedOutput} as it is
 * written, so that a message every place would refuse fails at its sender: {@link #bound} puts them in place of
 * Kryo's own on every registration of a {@link MessageCodec}'s Kryo. The formats on the wire are Kryo's, unchanged.
 *
 * <p>Covered: the primitive arrays ({@code boolean[]} here; the others are read through {@link BoundedInput}, and
 * only written here), {@code String[]},
 * object arrays, and the collections and maps Kryo's {@link CollectionSerializer} and {@link MapSerializer} read
 * ({@code ArrayList}, {@code HashMap}, {@code LinkedList}, {@code HashSet}, ...), {@code TreeSet}, {@code TreeMap},
 * {@code PriorityQueue}, {@code ConcurrentSkipListMap}, {@code Arrays.asList} and the JDK's immutable lists, sets
 * and maps ({@code List.of}, ...). A registration with a serializer of the program's own is left as it is.
 *
 * <p>The immutable collections' serializers below are adapted from Kryo's {@code ImmutableCollectionsSerializers}
 * (Copyright (c) 2008-2023, Nathan Sweet; BSD 3-Clause licence, as Kryo): Kryo's are final, so their
 * {@code create} cannot be given the check.
 */
final class BoundedSerializers {
    /** What one element of a collection or object array is charged: its slot and the smallest object. */
    static final int ELEMENT_BYTES = 24;
    /** What one entry of a map is charged: its slot, its node and the smallest key and value. */
    static final int ENTRY_BYTES = 48;

    private BoundedSerializers() {
    }

    /** Replaces, on every registration of {@code kryo} from id 0 to {@code lastId}, Kryo's serializer by ours. */
    static void bound(Kryo kryo, int lastId) {
        for (int id = 0; id <= lastId; id++) {
            Registration r = kryo.getRegistration(id);
            if (r != null) {
                Serializer<?> bounded = bounded(kryo, r.getType(), r.getSerializer());
                if (bounded != null) {
                    r.setSerializer(bounded);
                }
            }
        }
    }

    /** Ours in place of {@code serializer}, or null if it needs none (or is not Kryo's). */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Serializer<?> bounded(Kryo kryo, Class<?> type, Serializer<?> serializer) {
        Class<?> s = serializer.getClass();
        Serializer<?> primitive = writtenBounded(s, serializer);
        if (primitive != null) {
            return primitive;
        }
        if (s == BooleanArraySerializer.class) {
            return new BooleanArraySerializer() {
                @Override
                public boolean[] read(Kryo k, Input input, Class type) {
                    BoundedInput.admitLengthAhead(input, 1, 1, "boolean array");
                    return super.read(k, input, type);
                }

                @Override
                public void write(Kryo k, Output output, boolean[] array) {
                    admit(output, array == null ? -1 : array.length, 1, "boolean array");
                    super.write(k, output, array);
                }
            };
        }
        if (s == StringArraySerializer.class) {
            return new StringArraySerializer() {
                @Override
                public String[] read(Kryo k, Input input, Class type) {
                    BoundedInput.admitLengthAhead(input, 1, ELEMENT_BYTES, "String array");
                    return super.read(k, input, type);
                }

                @Override
                public void write(Kryo k, Output output, String[] array) {
                    admit(output, array == null ? -1 : array.length, ELEMENT_BYTES, "String array");
                    super.write(k, output, array);
                }
            };
        }
        if (s == ObjectArraySerializer.class) {
            return new ObjectArraySerializer(kryo, type) {
                @Override
                public Object[] read(Kryo k, Input input, Class type) {
                    BoundedInput.admitLengthAhead(input, 1, ELEMENT_BYTES, type.getSimpleName() + " array");
                    return super.read(k, input, type);
                }

                @Override
                public void write(Kryo k, Output output, Object[] array) {
                    admit(output, array == null ? -1 : array.length, ELEMENT_BYTES,
                            array);
                    super.write(k, output, array);
                }
            };
        }
        if (s == CollectionSerializer.class) {
            return new CollectionSerializer() {
                @Override
                protected Collection create(Kryo k, Input input, Class type, int size) {
                    BoundedInput.admit(input, size, ELEMENT_BYTES, type.getSimpleName());
                    return super.create(k, input, type, size);
                }

                @Override
                public void write(Kryo k, Output output, Collection value) {
                    admit(output, value == null ? -1 : value.size(), ELEMENT_BYTES,
                            value);
                    super.write(k, output, value);
                }
            };
        }
        if (s == TreeSetSerializer.class) {
            return new TreeSetSerializer() {
                @Override
                protected TreeSet create(Kryo k, Input input, Class type, int size) {
                    BoundedInput.admit(input, size, ELEMENT_BYTES, "TreeSet");
                    return super.create(k, input, type, size);
                }

                @Override
                public void write(Kryo k, Output output, TreeSet value) {
                    admit(output, value == null ? -1 : value.size(), ELEMENT_BYTES, "TreeSet");
                    super.write(k, output, value);
                }
            };
        }
        if (s == PriorityQueueSerializer.class) {
            return new PriorityQueueSerializer() {
                @Override
                protected PriorityQueue create(Kryo k, Input input, Class type, int size) {
                    BoundedInput.admit(input, size, ELEMENT_BYTES, "PriorityQueue");
                    return super.create(k, input, type, size);
                }

                @Override
                public void write(Kryo k, Output output, PriorityQueue value) {
                    admit(output, value == null ? -1 : value.size(), ELEMENT_BYTES, "PriorityQueue");
                    super.write(k, output, value);
                }
            };
        }
        if (s == ArraysAsListSerializer.class) {
            return new ArraysAsListSerializer() {
                @Override
                protected List create(Kryo k, Input input, Class type, int size) {
                    BoundedInput.admit(input, size, ELEMENT_BYTES, "Arrays.asList list");
                    return super.create(k, input, type, size);
                }

                @Override
                public void write(Kryo k, Output output, List value) {
                    admit(output, value == null ? -1 : value.size(), ELEMENT_BYTES, "Arrays.asList list");
                    super.write(k, output, value);
                }
            };
        }
        if (s == MapSerializer.class) {
            return new MapSerializer() {
                @Override
                protected Map create(Kryo k, Input input, Class type, int size) {
                    BoundedInput.admit(input, size, ENTRY_BYTES, type.getSimpleName());
                    return super.create(k, input, type, size);
                }

                @Override
                public void write(Kryo k, Output output, Map value) {
                    admit(output, value == null ? -1 : value.size(), ENTRY_BYTES,
                            value);
                    super.write(k, output, value);
                }
            };
        }
        if (s == TreeMapSerializer.class) {
            return new TreeMapSerializer() {
                @Override
                protected TreeMap create(Kryo k, Input input, Class type, int size) {
                    BoundedInput.admit(input, size, ENTRY_BYTES, "TreeMap");
                    return super.create(k, input, type, size);
                }

                @Override
                public void write(Kryo k, Output output, TreeMap value) {
                    admit(output, value == null ? -1 : value.size(), ENTRY_BYTES, "TreeMap");
                    super.write(k, output, value);
                }
            };
        }
        if (s == ConcurrentSkipListMapSerializer.class) {
            return new ConcurrentSkipListMapSerializer() {
                @Override
                protected ConcurrentSkipListMap create(Kryo k, Input input, Class type, int size) {
                    BoundedInput.admit(input, size, ENTRY_BYTES, "ConcurrentSkipListMap");
                    return super.create(k, input, type, size);
                }

                @Override
                public void write(Kryo k, Output output, ConcurrentSkipListMap value) {
                    admit(output, value == null ? -1 : value.size(), ENTRY_BYTES, "ConcurrentSkipListMap");
                    super.write(k, output, value);
                }
            };
        }
        if (s == ImmutableCollectionsSerializers.JdkImmutableListSerializer.class) {
            return new ImmutableList();
        }
        if (s == ImmutableCollectionsSerializers.JdkImmutableSetSerializer.class) {
            return new ImmutableSet();
        }
        if (s == ImmutableCollectionsSerializers.JdkImmutableMapSerializer.class) {
            return new ImmutableMap();
        }
        return null;
    }

    /**
     * The primitive arrays that {@link BoundedInput} admits as it reads them: admitted here as they are written, at
     * the same cost; null for another serializer.
     */
    private static Serializer<?> writtenBounded(Class<?> s, Serializer<?> serializer) {
        return s == ByteArraySerializer.class ? new WrittenBounded<>(serializer, 1, "byte array")
                : s == IntArraySerializer.class ? new WrittenBounded<>(serializer, 4, "int array")
                : s == LongArraySerializer.class ? new WrittenBounded<>(serializer, 8, "long array")
                : s == FloatArraySerializer.class ? new WrittenBounded<>(serializer, 4, "float array")
                : s == DoubleArraySerializer.class ? new WrittenBounded<>(serializer, 8, "double array")
                : s == ShortArraySerializer.class ? new WrittenBounded<>(serializer, 2, "short array")
                : s == CharArraySerializer.class ? new WrittenBounded<>(serializer, 2, "char array")
                : null;
    }

    /** Kryo's serializer of a primitive array, which admits the array's elements before it writes them. */
    private static final class WrittenBounded<T> extends Serializer<T> {
        private final Serializer<T> kryos;
        private final int bytesEach;
        private final String what;

        WrittenBounded(Serializer<T> kryos, int bytesEach, String what) {
            super(kryos.getAcceptsNull(), kryos.isImmutable());
            this.kryos = kryos;
            this.bytesEach = bytesEach;
            this.what = what;
        }

        @Override
        public void write(Kryo kryo, Output output, T array) {
            admit(output, array == null ? -1 : java.lang.reflect.Array.getLength(array), bytesEach, what);
            kryos.write(kryo, output, array);
        }

        @Override
        public T read(Kryo kryo, Input input, Class<? extends T> type) {
            return kryos.read(kryo, input, type);
        }

        @Override
        public T copy(Kryo kryo, T original) {
            return kryos.copy(kryo, original);
        }
    }

    /** Admits at the sender what the reader will admit: {@code count} elements (null: a null), if bounded. */
    private static void admit(Output output, int count, int bytesEach, Object what) {
        if (count >= 0) {
            BoundedOutput.admit(output, count, bytesEach, what);
        }
    }

    /** {@code List.of(...)}: read into a list of the admitted size, then made immutable. */
    private static final class ImmutableList extends CollectionSerializer<List<Object>> {
        ImmutableList() {
            setElementsCanBeNull(false);
        }

        @Override
        protected List<Object> create(Kryo kryo, Input input, Class<? extends List<Object>> type, int size) {
            BoundedInput.admit(input, size, ELEMENT_BYTES, "immutable list");
            return new ArrayList<>(size);
        }

        @Override
        protected List<Object> createCopy(Kryo kryo, List<Object> original) {
            return new ArrayList<>(original.size());
        }

        @Override
        public void write(Kryo kryo, Output output, List<Object> value) {
            admit(output, value == null ? -1 : value.size(), ELEMENT_BYTES, "immutable list");
            super.write(kryo, output, value);
        }

        @Override
        public List<Object> read(Kryo kryo, Input input, Class<? extends List<Object>> type) {
            List<Object> list = super.read(kryo, input, type);
            return list == null ? null : List.of(list.toArray());
        }

        @Override
        public List<Object> copy(Kryo kryo, List<Object> original) {
            return List.copyOf(super.copy(kryo, original));
        }
    }

    /** {@code Set.of(...)}. */
    private static final class ImmutableSet extends CollectionSerializer<Set<Object>> {
        ImmutableSet() {
            setElementsCanBeNull(false);
        }

        @Override
        protected Set<Object> create(Kryo kryo, Input input, Class<? extends Set<Object>> type, int size) {
            BoundedInput.admit(input, size, ELEMENT_BYTES, "immutable set");
            return new HashSet<>();
        }

        @Override
        protected Set<Object> createCopy(Kryo kryo, Set<Object> original) {
            return new HashSet<>();
        }

        @Override
        public void write(Kryo kryo, Output output, Set<Object> value) {
            admit(output, value == null ? -1 : value.size(), ELEMENT_BYTES, "immutable set");
            super.write(kryo, output, value);
        }

        @Override
        public Set<Object> read(Kryo kryo, Input input, Class<? extends Set<Object>> type) {
            Set<Object> set = super.read(kryo, input, type);
            return set == null ? null : Set.of(set.toArray());
        }

        @Override
        public Set<Object> copy(Kryo kryo, Set<Object> original) {
            return Set.copyOf(super.copy(kryo, original));
        }
    }

    /** {@code Map.of(...)}. */
    private static final class ImmutableMap extends MapSerializer<Map<Object, Object>> {
        ImmutableMap() {
            setKeysCanBeNull(false);
            setValuesCanBeNull(false);
        }

        @Override
        protected Map<Object, Object> create(Kryo kryo, Input input, Class<? extends Map<Object, Object>> type,
                                             int size) {
            BoundedInput.admit(input, size, ENTRY_BYTES, "immutable map");
            return new HashMap<>();
        }

        @Override
        protected Map<Object, Object> createCopy(Kryo kryo, Map<Object, Object> original) {
            return new HashMap<>();
        }

        @Override
        public void write(Kryo kryo, Output output, Map<Object, Object> value) {
            admit(output, value == null ? -1 : value.size(), ENTRY_BYTES, "immutable map");
            super.write(kryo, output, value);
        }

        @Override
        public Map<Object, Object> read(Kryo kryo, Input input, Class<? extends Map<Object, Object>> type) {
            Map<Object, Object> map = super.read(kryo, input, type);
            return map == null ? null : Map.copyOf(map);
        }

        @Override
        public Map<Object, Object> copy(Kryo kryo, Map<Object, Object> original) {
            return Map.copyOf(super.copy(kryo, original));
        }
    }
}
