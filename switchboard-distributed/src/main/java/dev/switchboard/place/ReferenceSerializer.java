package dev.switchboard.place;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import dev.switchboard.actor.ActorRef;
import dev.switchboard.actor.SelectorRef;
import dev.switchboard.spi.Seam;

/**
 * Writes a reference as its actor's id, name and mailbox count (-1: not a selector), exporting a local actor;
 * reads one as the local reference of an actor of this place, or a remote reference.
 */
final class ReferenceSerializer extends Serializer<ActorRef<?>> {
    private final PlaceRuntime place;

    ReferenceSerializer(PlaceRuntime place) {
        super(false, true);                          // no nulls written by Kryo for us; immutable
        this.place = place;
    }

    @Override
    public void write(Kryo kryo, Output output, ActorRef<?> ref) {
        long id = ref.id();
        if (!Seam.isRemote(ref)) {
            place.exports.export(id, ref);                   // deliveries for it find it
        }
        output.writeLong(id);
        output.writeString(ref.name());
        output.writeInt(ref instanceof SelectorRef<?, ?> s ? s.mailboxCount() : -1, true);
    }

    @Override
    public ActorRef<?> read(Kryo kryo, Input input, Class<? extends ActorRef<?>> type) {
        long id = input.readLong();
        String name = input.readString();
        int mailboxes = input.readInt(true);
        if (GlobalId.of(id).residencePlace() == place.here) {
            ActorRef<?> local = place.exports.get(id);
            if (local != null) {
                return local;
            }
        }
        return Seam.remoteRef(id, name, mailboxes, place);
    }
}
