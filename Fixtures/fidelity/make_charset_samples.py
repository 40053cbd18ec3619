#!/usr/bin/env python3
"""Write charset-samples.tsv: short texts of contact cards, our own invented names, streets and notes in 23
languages, each encoded in the legacy charsets its writers used, for the charset detector's tests
(Tests/VCardSyntaxTests/CharsetDetectionTests.swift).

usage: python3 make_charset_samples.py [--check]

Columns: language, Python codec, the bytes in hex, the text. Texts that encode to ASCII, or that happen to be
valid UTF-8, are left out: the reader never asks the detector about them.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "charset-samples.tsv")

# language, the charsets it is written in, texts
SAMPLES = [
 ("French", ["cp1252", "mac_roman", "iso8859_15"], ["François Lefèvre", "Hélène Dubois", "12 rue de l'Église", "Île-de-France", "Préfère être appelé le matin", "Benoît Garçon", "Zoé Mercier", "Crèche Sainte-Thérèse", "Château-Thierry", "Noël"]),
 ("German", ["cp1252", "mac_roman", "iso8859_15", "cp1250", "iso8859_2"], ["Jürgen Müller", "Grüße aus Köln", "Hauptstraße 5", "Bäckerei Schäfer", "Österreich", "Mädchen für alles", "Björn Weiß", "Düsseldorf", "Fußball am Sonntag", "Jörg Kühn"]),
 ("Spanish", ["cp1252", "mac_roman"], ["José Muñoz", "Lucía Fernández", "Calle Mayor 3, 2º", "Andalucía", "¿Llamar mañana?", "Íñigo Ibáñez", "Señora Gómez", "Álvaro Núñez", "Cádiz", "Peña"]),
 ("Portuguese", ["cp1252", "mac_roman"], ["João Simões", "Conceição", "Avenida da Liberdade", "São Paulo", "Estêvão Gonçalves", "Inês Magalhães", "Rua das Flores, nº 4", "Ação social", "Brasília", "Antônio"]),
 ("Italian", ["cp1252", "mac_roman"], ["Niccolò Rossi", "Città di Castello", "Via Roma 2", "Perché no", "Nicolò Della Rovere", "Caffè Sant'Eustachio", "Lunedì mattina", "Forlì", "È tardi", "Però"]),
 ("Danish", ["cp1252", "mac_roman"], ["Søren Kierkegaard", "Æbleø", "Østerbrogade 12", "Bjørn Ærø", "Århus", "Grønnegade", "Læge", "Mølle", "Kåre Sørensen", "Færøerne"]),
 ("Swedish", ["cp1252", "mac_roman"], ["Åsa Öberg", "Göteborg", "Kungsgatan 4", "Malmö", "Västerås", "Lärare", "Björkvägen 9", "Håkan Ström", "Örebro", "Mäster Samuelsgatan"]),
 ("Finnish", ["cp1252"], ["Jyväskylä", "Hämeenlinna", "Päivi Mäkelä", "Töölönkatu 3", "Pyhäjärvi", "Seinäjoki", "Äänekoski"]),
 ("Polish", ["cp1250", "iso8859_2"], ["Małgorzata Wiśniewska", "Łódź", "ul. Żółkiewskiego 7", "Gdańsk", "Kraków", "Paweł Wójcik", "Zażółć gęślą jaźń", "Szczecin, ul. Piłsudskiego", "Józef Dąbrowski", "Bożena Kałuża"]),
 ("Czech", ["cp1250", "iso8859_2"], ["Jiří Dvořák", "Dřevařství", "Náměstí Míru 5", "Plzeň", "České Budějovice", "Růžena Šťastná", "Přerov", "Zdeněk Novák", "Ústí nad Labem", "Věra Čermáková"]),
 ("Slovak", ["cp1250", "iso8859_2"], ["Ľubomír Štefánik", "Košice", "Žilina", "Námestie SNP", "Ďurčanský", "Trenčín", "Bratislava, Dúbravka"]),
 ("Hungarian", ["cp1250", "iso8859_2"], ["Szőke Tünde", "Győr", "Kossuth Lajos utca", "Pécs", "Erdős Pál", "Székesfehérvár", "Bíró Ödön", "Debrecen, Piac utca"]),
 ("Croatian", ["cp1250", "iso8859_2"], ["Đurđica Kovačević", "Ivan Horvat", "Split, Ulica Šetalište", "Čakovec", "Mirjana Jurić", "Ljubljana, Prešernov trg", "Žiga Košir"]),
 ("Romanian", ["cp1250"], ["Ştefan Munteanu", "Bucureşti", "Ţară", "Iaşi", "Brăila", "Constanţa"]),
 ("Russian", ["cp1251", "koi8_r", "iso8859_5"], ["Дмитрий Кузнецов", "Ольга Смирнова", "ул. Ленина, д. 5", "Москва", "Позвонить после обеда", "Санкт-Петербург", "Пётр Иванов", "Екатеринбург", "Анна Сергеевна", "Встреча в четверг"]),
 ("Ukrainian", ["cp1251", "koi8_u"], ["Віталій Коваленко", "Київ", "вул. Шевченка, 12", "Львів", "Оксана Їжакевич", "Запоріжжя", "Ганна Бойко", "Харків"]),
 ("Bulgarian", ["cp1251"], ["Георги Димитров", "София", "ул. Витоша 15", "Пловдив", "Йордан Петков", "Варна"]),
 ("Serbian", ["cp1251"], ["Ђорђе Јовановић", "Београд", "Нови Сад", "Љиљана Петровић", "Његошева 7"]),
 ("Greek", ["cp1253", "iso8859_7"], ["Ελένη Παπαδοπούλου", "Αθήνα", "Οδός Ερμού 10", "Θεσσαλονίκη", "Γιώργος Νικολάου", "Ναυτιλιακή Εταιρεία", "Κρήτη", "Σπύρος"]),
 ("Hebrew", ["cp1255", "iso8859_8"], ["שרה כהן", "תל אביב", "רחוב הרצל 5", "ירושלים", "משה לוי", "חיפה", "דוד אברהם"]),
 ("Japanese", ["shift_jis"], ["山田 花子", "東京都新宿区西新宿二丁目8番1号", "佐藤 健太", "株式会社テスト", "大阪府大阪市", "鈴木 一郎", "よろしくお願いします", "ﾔﾏﾀﾞ ﾊﾅｺ"]),
 ("Chinese simplified", ["gb18030"], ["王小明", "北京市海淀区中关村大街1号", "张伟", "上海市浦东新区", "李娜", "深圳市南山区科技园", "陈静"]),
 ("Chinese traditional", ["big5"], ["陳美玲", "臺北市信義區市府路1號", "林志明", "高雄市", "張雅婷", "新竹市東區"]),
]


def rows():
    out = []
    for language, charsets, texts in SAMPLES:
        for charset in charsets:
            for text in texts:
                try:
                    data = text.encode(charset)
                except UnicodeEncodeError:
                    continue
                if all(byte < 0x80 for byte in data):
                    continue
                try:
                    data.decode("utf-8")
                    continue
                except UnicodeDecodeError:
                    pass
                out.append("%s\t%s\t%s\t%s\n" % (language, charset, data.hex(), text))
    return "".join(out)


def main(argv):
    text = rows()
    if "--check" in argv:
        same = os.path.exists(OUT) and open(OUT, encoding="utf-8").read() == text
        print("charset-samples.tsv is %s" % ("up to date" if same else "out of date"))
        return 0 if same else 1
    with open(OUT, "w", encoding="utf-8") as handle:
        handle.write(text)
    print("wrote %s" % OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
