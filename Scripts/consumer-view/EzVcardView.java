// What ez-vcard (Java) sees in vCard files: one JSON line per file on stdout.
//
// usage: java -cp /usr/share/java/ez-vcard.jar:/usr/share/java/vinnie.jar Scripts/consumer-view/EzVcardView.java FILE...
//
// Each file is read with Ezvcard.parse(file).all() (UTF-8, ez-vcard's lenient defaults: what an application
// using ez-vcard gets). Every property becomes an entry {"n", "g", "v", "p"} (see consumer-view.sh):
//   n  the property name (ez-vcard's scribe name; an unknown property's own name)
//   v  the value as ez-vcard's scribe writes it back as text (4.0 where the property exists there, else
//      3.0, else 2.1), so the same understanding gives the same string whatever the source version;
//      embedded binary as "binary:SIZE:SHA1", links as "url:URL"; a nested AGENT card's properties follow
//      as entries named AGENT/NAME
//   p  the parameters except ENCODING and CHARSET, TYPE values lower-cased; for binary properties
//      "(media)" is the media type ez-vcard settled on
// A file ez-vcard cannot read at all gives "error".

import ezvcard.Ezvcard;
import ezvcard.VCard;
import ezvcard.VCardVersion;
import ezvcard.io.scribe.ScribeIndex;
import ezvcard.io.scribe.VCardPropertyScribe;
import ezvcard.io.text.WriteContext;
import ezvcard.property.Agent;
import ezvcard.property.BinaryProperty;
import ezvcard.property.RawProperty;
import ezvcard.property.VCardProperty;
import java.io.File;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

public final class EzVcardView {
    private static final ScribeIndex INDEX = new ScribeIndex();

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: EzVcardView FILE...");
            System.exit(64);
        }
        StringBuilder out = new StringBuilder();
        for (String path : args) {
            out.setLength(0);
            out.append("{\"file\":").append(json(path)).append(",\"cards\":[");
            String error = null;
            try {
                List<VCard> cards = Ezvcard.parse(new File(path)).all();
                for (int i = 0; i < cards.size(); i++) {
                    if (i > 0) out.append(',');
                    out.append('[');
                    List<String> entries = new ArrayList<>();
                    entries(cards.get(i), "", entries, 0);
                    out.append(String.join(",", entries));
                    out.append(']');
                }
            } catch (Throwable failure) {
                error = failure.getClass().getSimpleName() + ": " + String.valueOf(failure.getMessage());
            }
            out.append("],\"error\":").append(error == null ? "null" : json(error)).append('}');
            System.out.println(out);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void entries(VCard card, String prefix, List<String> out, int depth) {
        if (card.getVersion() != null && prefix.isEmpty()) {
            out.add(entry("VERSION", null, card.getVersion().getVersion(), new TreeMap<>()));
        }
        for (VCardProperty property : card.getProperties()) {
            VCardPropertyScribe scribe = INDEX.getPropertyScribe(property);
            String name = property instanceof RawProperty
                ? ((RawProperty) property).getPropertyName().toUpperCase(Locale.ROOT)
                : scribe.getPropertyName().toUpperCase(Locale.ROOT);
            TreeMap<String, List<String>> params = new TreeMap<>();
            for (Map.Entry<String, List<String>> parameter : property.getParameters()) {
                String key = parameter.getKey().toUpperCase(Locale.ROOT);
                if (key.equals("ENCODING") || key.equals("CHARSET")) continue;
                List<String> values = new ArrayList<>();
                for (String value : parameter.getValue()) {
                    values.add(key.equals("TYPE") ? value.toLowerCase(Locale.ROOT) : value);
                }
                Collections.sort(values);
                params.put(key, values);
            }
            String value;
            if (property instanceof Agent) {
                Agent agent = (Agent) property;
                if (agent.getVCard() != null && depth < 8) {
                    out.add(entry(prefix + name, property.getGroup(), "(vcard)", params));
                    entries(agent.getVCard(), prefix + name + "/", out, depth + 1);
                    continue;
                }
                value = agent.getUrl() != null ? "url:" + agent.getUrl() : "";
            } else if (property instanceof BinaryProperty) {
                BinaryProperty binary = (BinaryProperty) property;
                if (binary.getData() != null) {
                    value = "binary:" + binary.getData().length + ":" + sha1(binary.getData()) + ":" + magic(binary.getData());
                } else if (property instanceof ezvcard.property.Key && ((ezvcard.property.Key) property).getText() != null) {
                    value = "text:" + ((ezvcard.property.Key) property).getText();
                } else {
                    value = "url:" + binary.getUrl();
                }
                if (binary.getContentType() != null) {
                    String media = ((ezvcard.parameter.MediaTypeParameter) binary.getContentType()).getMediaType();
                    if (media != null) params.put("(media)", Collections.singletonList(media.toLowerCase(Locale.ROOT)));
                }
            } else {
                value = text(scribe, property);
            }
            out.add(entry(prefix + name, property.getGroup(), value, params));
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static String text(VCardPropertyScribe scribe, VCardProperty property) {
        VCardVersion[] order = {VCardVersion.V4_0, VCardVersion.V3_0, VCardVersion.V2_1};
        for (VCardVersion version : order) {
            if (!property.isSupportedBy(version)) continue;
            try {
                return scribe.writeText(property, new WriteContext(version, null, false));
            } catch (Throwable ignored) {
                // the next version, or the fallback below
            }
        }
        return String.valueOf(property);
    }

    private static String entry(String name, String group, String value, TreeMap<String, List<String>> params) {
        StringBuilder b = new StringBuilder("{\"n\":").append(json(name));
        b.append(",\"g\":").append(group == null ? "null" : json(group));
        b.append(",\"v\":").append(json(value)).append(",\"p\":{");
        boolean first = true;
        for (Map.Entry<String, List<String>> p : params.entrySet()) {
            if (!first) b.append(',');
            first = false;
            b.append(json(p.getKey())).append(":[");
            for (int i = 0; i < p.getValue().size(); i++) {
                if (i > 0) b.append(',');
                b.append(json(p.getValue().get(i)));
            }
            b.append(']');
        }
        return b.append("}}").toString();
    }

    /** The format the bytes' signature names (the same test in every consumer's script). */
    private static String magic(byte[] d) {
        if (d.length >= 3 && (d[0] & 0xFF) == 0xFF && (d[1] & 0xFF) == 0xD8 && (d[2] & 0xFF) == 0xFF) return "jpeg";
        if (d.length >= 8 && (d[0] & 0xFF) == 0x89 && d[1] == 'P' && d[2] == 'N' && d[3] == 'G') return "png";
        if (d.length >= 4 && d[0] == 'G' && d[1] == 'I' && d[2] == 'F' && d[3] == '8') return "gif";
        if (d.length >= 12 && d[0] == 'R' && d[1] == 'I' && d[2] == 'F' && d[3] == 'F' && d[8] == 'W' && d[9] == 'E'
            && d[10] == 'B' && d[11] == 'P') return "webp";
        if (d.length >= 12 && d[4] == 'f' && d[5] == 't' && d[6] == 'y' && d[7] == 'p'
            && (new String(d, 8, 4, java.nio.charset.StandardCharsets.ISO_8859_1).matches("heic|heix|mif1|msf1"))) return "heic";
        if (d.length >= 2 && d[0] == 'B' && d[1] == 'M') return "bmp";
        return "?";
    }

    private static String sha1(byte[] data) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(data);
            StringBuilder hex = new StringBuilder();
            for (int i = 0; i < 8; i++) hex.append(String.format("%02x", digest[i]));
            return hex.toString();
        } catch (Exception e) {
            return "?";
        }
    }

    private static String json(String text) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
