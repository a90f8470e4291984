"""French texts of the bundled synthesis dossier (workflow 2): the question and 32 documents.

Fictional products and figures. The dossier compares three LLM inference servers (Kestrel
Serve, Tamaris Inference, Orvet) and plants four contradictions between dated, typed
sources; six documents are off-topic noise (office life). Each document states its values
once, in plain sentences (``latence p95 de 340 ms``), so that a reader working from
general patterns can find them; the only disagreements are the planted ones:

- C1 Kestrel Serve p95 latency and throughput: doc-02 (vendor note, February) vs doc-06
  (internal benchmark, July);
- C2 Tamaris Inference licence: doc-04 (blog, March) vs doc-05 (official announcement, May);
- C3 Orvet advisory ORV-SA-2026-004: doc-16 (bulletin, April) vs doc-17 (bulletin, June),
  with doc-13 (changelog) confirming the fix;
- C4 Kestrel Serve 2.x end of support: doc-30 (meeting minutes, May) vs doc-31 (official
  announcement, September).

Version numbers are written with three parts (``3.4.2``) or as branches (``2.x``): a number
checker must not read them as figures.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DOCUMENTS", "QUESTION", "DocumentText"]


@dataclass(frozen=True, slots=True)
class DocumentText:
    """One document of the dossier: header fields, body, and whether it is noise."""

    id: str
    title: str
    date: str
    source_type: str
    body: str
    off_topic: bool = False


QUESTION = """\
# Question du comité d'architecture

Quel serveur d'inférence LLM la plateforme interne doit-elle retenir pour 2026 et 2027 :
Kestrel Serve, Tamaris Inference ou Orvet ?

Le comité attend une synthèse qui compare les candidats sur les performances mesurées
(latence p95, débit), la licence et le coût, l'état de sécurité, la pérennité du produit
et le besoin en GPU, en signalant chaque contradiction entre les sources et la façon dont
elle a été tranchée.
"""

_D = DocumentText

DOCUMENTS: tuple[DocumentText, ...] = (
    _D(
        "doc-01",
        "Cadrage de l'étude et protocole commun de mesure",
        "2026-01-12",
        "technical note",
        """\
Le comité d'architecture doit choisir le serveur d'inférence LLM de la plateforme interne.
Trois candidats sont étudiés : Kestrel Serve, édité par Kestrel Labs ; Tamaris Inference,
édité par Tamaris Software ; Orvet, projet open source maintenu par Orvet Systems.

Protocole commun de mesure, applicable à tout banc d'essai interne : modèle de référence
de 8 milliards de paramètres en bf16, un serveur équipé de deux GPU, 32 requêtes
simultanées, invites de 1 000 tokens et réponses de 250 tokens, 20 minutes de charge après
5 minutes de préchauffage. On relève la latence p95 de la réponse complète et le débit
agrégé, en tokens générés par seconde.

Les chiffres publiés par les éditeurs ne sont pas comparables entre eux, chacun choisissant
ses propres conditions. Seules les mesures faites selon ce protocole serviront à comparer
les performances des candidats.
""",
    ),
    _D(
        "doc-02",
        "Kestrel Serve 2.3.1 : fiche de performances",
        "2026-02-10",
        "vendor note",
        """\
Kestrel Labs présente les performances de Kestrel Serve 2.3.1 mesurées sur son banc de
démonstration.

Kestrel Serve : latence p95 de 120 ms.
Kestrel Serve : débit de 2 400 tok/s.

Conditions de mesure de l'éditeur : un seul GPU de dernière génération, lots de 8 requêtes,
invites de 200 tokens et réponses de 64 tokens. Cette version introduit un ordonnanceur de
lots continu et la mise en cache des préfixes. Pour toute question, contactez votre
responsable de compte Kestrel Labs.
""",
    ),
    _D(
        "doc-03",
        "Comité d'architecture : lancement de l'étude",
        "2026-01-20",
        "meeting minutes",
        """\
Présents : direction technique, équipe plateforme, équipe sécurité, achats.

Le comité lance l'étude de choix du serveur d'inférence LLM. Critères retenus : performances
mesurées selon le protocole commun, licence et coût, état de sécurité, pérennité du produit,
besoin en GPU. La décision est attendue à l'automne. L'équipe plateforme réalisera un banc
d'essai interne avant l'été ; les achats collecteront les devis des éditeurs.
""",
    ),
    _D(
        "doc-04",
        "Tamaris Inference, le serveur d'inférence libre qui monte",
        "2026-03-05",
        "blog",
        """\
Le Carnet du MLOps, billet invité.

Tamaris Inference séduit de plus en plus d'équipes. Son principal atout tient en une ligne :
Tamaris Inference : licence Apache 2.0, utilisable gratuitement, y compris en production.

L'installation prend une dizaine de minutes et l'API est compatible avec celle d'OpenAI.
Nous n'avons pas mesuré ses performances nous-mêmes, mais les retours de la communauté sont
enthousiastes. À suivre de près.
""",
    ),
    _D(
        "doc-05",
        "Tamaris Software : changement de licence de Tamaris Inference",
        "2026-05-19",
        "official announcement",
        """\
Tamaris Software annonce un changement de licence pour Tamaris Inference.

Tamaris Inference : licence TSL (Tamaris Source License) depuis juin 2026.

La TSL s'applique à toutes les versions publiées à compter du 1er juin 2026 et remplace la
licence précédente. L'évaluation et le développement restent gratuits ; l'usage en
production au-delà de deux GPU requiert une licence commerciale. Les versions antérieures ne
reçoivent plus de correctifs.
""",
    ),
    _D(
        "doc-06",
        "Banc d'essai interne des serveurs d'inférence (protocole commun)",
        "2026-07-09",
        "internal benchmark",
        """\
Mesures réalisées par l'équipe plateforme selon le protocole commun de l'étude : modèle de
8 milliards de paramètres, deux GPU, 32 requêtes simultanées, invites de 1 000 tokens,
réponses de 250 tokens.

Kestrel Serve : latence p95 de 340 ms.
Kestrel Serve : débit de 1 900 tok/s.
Tamaris Inference : latence p95 de 280 ms.
Tamaris Inference : débit de 2 100 tok/s.
Orvet : latence p95 de 410 ms.
Orvet : débit de 1 500 tok/s.

Chaque mesure a été répétée trois fois ; l'écart entre répétitions reste inférieur à 5 %.
Versions testées : Kestrel Serve 2.3.1, Tamaris Inference 1.8.0, Orvet 3.4.1.
""",
    ),
    _D(
        "doc-07",
        "Devis Tamaris Software : licence commerciale TSL",
        "2026-07-21",
        "quote/estimate",
        """\
Devis TS-2026-0412 adressé aux achats.

Tamaris Inference : prix de 38 000 € HT par an.

Objet : licence commerciale TSL de Tamaris Inference pour la production, jusqu'à 16 GPU,
support standard inclus aux heures ouvrées. Engagement minimal d'un an. Validité du devis :
90 jours.
""",
    ),
    _D(
        "doc-08",
        "Devis Kestrel Labs : souscription Kestrel Serve Entreprise",
        "2026-07-24",
        "quote/estimate",
        """\
Devis KL-7781 adressé aux achats.

Kestrel Serve : prix de 52 000 € HT par an.

Objet : souscription annuelle Kestrel Serve Entreprise, licence et support 24/7 compris,
nombre de GPU illimité. Une remise est possible pour un engagement de trois ans. Validité du
devis : 60 jours.
""",
    ),
    _D(
        "doc-09",
        "Réunion de planification capacitaire GPU",
        "2026-03-12",
        "meeting minutes",
        """\
Présents : équipe plateforme, finance, hébergement.

Parc GPU d'inférence : 6 GPU en 2026.
Parc GPU d'inférence : 12 GPU en 2027.

Il s'agit du parc total en service chaque année, pas d'achats supplémentaires : les GPU en
service en 2026 font partie du parc de 2027. Les GPU seront loués auprès de l'hébergeur
actuel. Le besoin suivant sera réévalué après un an d'exploitation.
""",
    ),
    _D(
        "doc-10",
        "Kestrel Serve : architecture et intégration",
        "2026-04-02",
        "technical note",
        """\
Kestrel Serve : licence commerciale propriétaire.

Kestrel Serve expose une API compatible avec celle d'OpenAI et s'installe sur Kubernetes au
moyen d'un opérateur fourni par l'éditeur. Il sert plusieurs modèles par serveur et met en
cache les préfixes d'invite. La télémétrie vers l'éditeur est activée par défaut et peut
être désactivée dans la configuration.
""",
    ),
    _D(
        "doc-11",
        "INC-4471 : Orvet s'arrête sur les contextes longs",
        "2026-05-06",
        "ticket",
        """\
Lors des essais, Orvet 3.4.1 s'arrête, mémoire GPU saturée, au-delà de 32 000 tokens de
contexte. Contournement appliqué : limiter le contexte à 16 000 tokens dans la
configuration. Statut : résolu par paramétrage, sans modification du code. Priorité :
moyenne.
""",
    ),
    _D(
        "doc-12",
        "Audit de sécurité de Tamaris Inference",
        "2026-06-15",
        "audit",
        """\
Audit réalisé par le cabinet Sentinelle Conseil sur Tamaris Inference 1.8.0.

Aucune vulnérabilité critique n'a été relevée. Deux vulnérabilités de sévérité moyenne
concernent la journalisation des requêtes ; elles se corrigent par configuration.
Recommandation : activer le chiffrement des journaux avant la mise en production.
""",
    ),
    _D(
        "doc-13",
        "Orvet 3.4.2 : notes de version",
        "2026-06-26",
        "changelog",
        """\
Orvet 3.4.2, notes de version.

ORV-SA-2026-004 : corrigée dans Orvet 3.4.2.

Sécurité : correction du contournement de l'authentification de l'API d'administration.

Autres corrections : fuite mémoire lors de l'annulation de requêtes ; journalisation des
erreurs de chargement de modèle. Mise à jour recommandée pour toutes les installations de
la branche 3.x.
""",
    ),
    _D(
        "doc-14",
        "Orvet : architecture et limites connues",
        "2026-05-20",
        "technical note",
        """\
Orvet : licence MIT.

Orvet est un serveur d'inférence open source maintenu par Orvet Systems. Il répartit un
modèle sur plusieurs GPU et expose une API compatible avec celle d'OpenAI. Limites connues :
pas d'opérateur Kubernetes officiel ; les contextes longs sont coûteux en mémoire.
""",
    ),
    _D(
        "doc-15",
        "REQ-2210 : intégration SSO de Kestrel Serve",
        "2026-06-03",
        "ticket",
        """\
Demande d'intégration de Kestrel Serve à l'annuaire d'entreprise. Kestrel Serve prend en
charge OIDC ; la configuration a été validée sur l'environnement de recette. Statut :
terminé.
""",
    ),
    _D(
        "doc-16",
        "ORV-SA-2026-004 : vulnérabilité critique dans Orvet",
        "2026-04-08",
        "security bulletin",
        """\
Bulletin de sécurité Orvet ORV-SA-2026-004.

ORV-SA-2026-004 : vulnérabilité critique, aucun correctif disponible.

Sévérité : critique (score CVSS de 9,1). Un contournement de l'authentification de l'API
d'administration permet à un attaquant du réseau de charger un modèle arbitraire. Versions
affectées : 3.4.0 et 3.4.1. Atténuation : ne pas exposer l'API d'administration hors du
réseau interne.
""",
    ),
    _D(
        "doc-17",
        "ORV-SA-2026-004 (révision 2) : correctif publié",
        "2026-06-24",
        "security bulletin",
        """\
Bulletin de sécurité Orvet ORV-SA-2026-004, révision 2.

ORV-SA-2026-004 : corrigée dans Orvet 3.4.2.

Sévérité inchangée : critique (score CVSS de 9,1). Les installations en 3.4.0 ou 3.4.1
doivent être mises à jour. Aucune exploitation active n'a été signalée.
""",
    ),
    _D(
        "doc-18",
        "Six mois avec Kestrel Serve : retour d'expérience",
        "2026-02-25",
        "blog",
        """\
Nous exploitons Kestrel Serve depuis six mois pour notre assistant client. L'installation par
l'opérateur Kubernetes s'est bien passée et la documentation est claire. Le support de
l'éditeur répond vite. Seul regret : le coût de la licence, élevé pour une petite équipe.
""",
    ),
    _D(
        "doc-19",
        "Kestrel Serve 2.4.0 : notes de version",
        "2026-08-18",
        "changelog",
        """\
Kestrel Serve 2.4.0, notes de version.

Nouveautés : décodage spéculatif, quantification en FP8, métriques Prometheus enrichies.
Corrections : redémarrage de l'ordonnanceur après une erreur GPU. Cette version appartient à
la branche 2.x.
""",
    ),
    _D(
        "doc-20",
        "Comité d'architecture : revue du banc d'essai interne",
        "2026-07-30",
        "meeting minutes",
        """\
Le comité a pris connaissance du banc d'essai interne de juillet. Il note que les chiffres
de la fiche de performances publiée par Kestrel Labs en février ont été obtenus dans d'autres
conditions (invites courtes, petits lots, un seul GPU) et ne sont pas comparables au
protocole commun. Le comité retient les mesures internes pour comparer les candidats.

Action : l'équipe sécurité vérifie l'état du bulletin de sécurité Orvet avant la décision.
""",
    ),
    _D(
        "doc-21",
        "Estimation du coût de location des GPU",
        "2026-08-05",
        "quote/estimate",
        """\
Estimation transmise par l'hébergeur actuel.

Location de GPU d'inférence : prix de 2 300 € HT par GPU et par mois.

Engagement annuel ; tarif garanti jusqu'à la fin de 2027. Des frais de mise en service de
800 € HT par serveur s'ajoutent la première année.
""",
    ),
    _D(
        "doc-22",
        "Tamaris Inference : exploitation et observabilité",
        "2026-08-12",
        "technical note",
        """\
Tamaris Inference publie ses métriques au format Prometheus et ses traces au format
OpenTelemetry. Les mises à jour se font par redémarrage progressif, sans interruption de
service. L'équipe plateforme estime la charge d'exploitation à un demi-équivalent temps
plein.
""",
    ),
    _D(
        "doc-23",
        "Orvet Systems : offre de support entreprise",
        "2026-04-15",
        "vendor note",
        """\
Orvet Systems propose un support entreprise pour Orvet : réponse sous quatre heures pour les
incidents critiques et correctifs de sécurité rétroportés sur la branche maintenue.

Orvet : prix de 24 000 € HT par an pour le support entreprise.

Le logiciel lui-même reste libre et gratuit.
""",
    ),
    _D(
        "doc-24",
        "Services généraux : déménagement de la comptabilité",
        "2026-02-03",
        "meeting minutes",
        """\
Le déménagement de l'équipe comptabilité vers le troisième étage aura lieu le 14 mars.
Les services généraux fourniront 45 cartons. Les places de stationnement du sous-sol seront
réattribuées après le déménagement.
""",
        off_topic=True,
    ),
    _D(
        "doc-25",
        "INC-3920 : imprimante du deuxième étage hors service",
        "2026-03-17",
        "ticket",
        """\
L'imprimante couleur du deuxième étage affiche une erreur de bourrage papier. Le prestataire
interviendra sous 48 heures. Statut : résolu le 19 mars, rouleau d'entraînement remplacé.
""",
        off_topic=True,
    ),
    _D(
        "doc-26",
        "Cinq conseils pour réussir son télétravail",
        "2026-04-22",
        "blog",
        """\
Aménagez un espace dédié, fixez-vous des horaires, faites une pause toutes les 90 minutes,
gardez un rituel de fin de journée et voyez vos collègues au moins une fois par semaine.
""",
        off_topic=True,
    ),
    _D(
        "doc-27",
        "Nouvelle mutuelle d'entreprise au 1er juillet",
        "2026-05-05",
        "official announcement",
        """\
À compter du 1er juillet 2026, la mutuelle d'entreprise change d'organisme. La cotisation
salariale reste fixée à 38 € par mois. Les nouvelles cartes seront envoyées à domicile.
""",
        off_topic=True,
    ),
    _D(
        "doc-28",
        "Migration du wiki interne",
        "2026-06-09",
        "technical note",
        """\
Le wiki interne migre vers une nouvelle version le 20 juin. Les pages resteront en lecture
seule pendant 4 heures ; les liens existants seront redirigés automatiquement.
""",
        off_topic=True,
    ),
    _D(
        "doc-29",
        "Devis de mobilier de bureau",
        "2026-06-30",
        "quote/estimate",
        """\
Fourniture de 24 bureaux réglables en hauteur et de 24 fauteuils : 14 400 € HT, livraison
et montage compris. Délai de livraison : six semaines après commande.
""",
        off_topic=True,
    ),
    _D(
        "doc-30",
        "Point fournisseur avec Kestrel Labs",
        "2026-05-12",
        "meeting minutes",
        """\
Participants : équipe plateforme, achats, responsable de compte de Kestrel Labs.

Kestrel Serve 2.x : fin de support le 31 décembre 2028.

Le responsable de compte l'a indiqué oralement, sans document écrit. Les achats demandent une
confirmation écrite avant toute signature. Prochain point prévu en septembre.
""",
    ),
    _D(
        "doc-31",
        "Kestrel Labs : politique de cycle de vie de Kestrel Serve",
        "2026-09-15",
        "official announcement",
        """\
Kestrel Labs publie la politique de cycle de vie de Kestrel Serve.

Kestrel Serve 2.x : fin de support le 30 juin 2027.

Aucun correctif, y compris de sécurité, ne sera publié pour la branche 2.x après cette date.
Les clients sont invités à planifier la migration vers la branche suivante.
""",
    ),
    _D(
        "doc-32",
        "Audit de conformité : hébergement des données",
        "2026-09-01",
        "audit",
        """\
Audit interne de conformité des trois candidats. Kestrel Serve, Tamaris Inference et Orvet
peuvent être déployés entièrement sur l'infrastructure interne, sans envoi des requêtes vers
un tiers. Point d'attention : la télémétrie de Kestrel Serve, activée par défaut, doit être
désactivée avant la mise en production. Aucun obstacle réglementaire n'est relevé.
""",
    ),
)
