<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="nl_NL">
  <context>
    <name>SpatialPrivacy</name>
    <message>
      <location filename="../plugin/plugin.py" line="59" />
      <source>Outputs left half written in {0} could not be checked: {1}</source>
      <translation>Half geschreven uitvoer in {0} kon niet worden gecontroleerd: {1}</translation>
    </message>
    <message>
      <location filename="../plugin/plugin.py" line="98" />
      <source>Spatial Privacy algorithms…</source>
      <translation>Spatial Privacy-algoritmen…</translation>
    </message>
    <message>
      <location filename="../plugin/plugin.py" line="100" />
      <source>Show the Spatial Privacy algorithms in the Processing toolbox</source>
      <translation>Toon de Spatial Privacy-algoritmen in de toolbox Processing</translation>
    </message>
    <message>
      <location filename="../plugin/plugin.py" line="104" />
      <source>Privacy explorer…</source>
      <translation>Privacyverkenner…</translation>
    </message>
    <message>
      <location filename="../plugin/plugin.py" line="106" />
      <source>Pick ε and a method's settings while previewing what they cost</source>
      <translation>Kies ε en de instellingen van een methode en zie vooraf wat ze kosten</translation>
    </message>
    <message>
      <location filename="../plugin/plugin.py" line="156" />
      <source>Enable the Processing plugin to use the Spatial Privacy algorithms.</source>
      <translation>Schakel de plug-in Processing in om de Spatial Privacy-algoritmen te gebruiken.</translation>
    </message>
    <message>
      <location filename="../processing/algorithm.py" line="112" />
      <source>NOT PRIVATE ({0}): {1}</source>
      <translation>NIET PRIVÉ ({0}): {1}</translation>
    </message>
    <message>
      <location filename="../processing/algorithm.py" line="155" />
      <source>Cancel came after {0} had been written in place (such outputs cannot be staged); it was finished so that no half-written layer is left, and the other outputs were written too.</source>
      <translation>Annuleren kwam nadat {0} ter plaatse was geschreven (zulke uitvoer kan niet eerst apart worden geschreven); het werd afgemaakt zodat er geen half geschreven laag achterblijft, en de andere uitvoer werd ook geschreven.</translation>
    </message>
    <message>
      <location filename="../processing/algorithm.py" line="167" />
      <source>Not enough memory for this run ({0}). Give fewer features or coarser settings, or close other programs.</source>
      <translation>Onvoldoende geheugen voor deze run ({0}). Geef minder objecten of grovere instellingen, of sluit andere programma's.</translation>
    </message>
    <message>
      <location filename="../processing/algorithm.py" line="191" />
      <source>Invalid parameter values.</source>
      <translation>Ongeldige parameterwaarden.</translation>
    </message>
    <message>
      <location filename="../processing/algorithm.py" line="195" />
      <source>disclosure control</source>
      <translation>onthullingscontrole</translation>
    </message>
    <message>
      <location filename="../processing/algorithm.py" line="195" />
      <source>privacy</source>
      <translation>privacy</translation>
    </message>
    <message>
      <location filename="../processing/algorithm.py" line="217" />
      <source>Random seed (testing only)</source>
      <translation>Seed van de toevalsgenerator (alleen voor tests)</translation>
    </message>
    <message>
      <location filename="../processing/algorithm.py" line="224" />
      <source>Why the outputs are NOT PRIVATE (empty when the guarantee holds)</source>
      <translation>Waarom de uitvoer NIET PRIVÉ is (leeg als de garantie geldt)</translation>
    </message>
    <message>
      <location filename="../processing/algorithm.py" line="232" />
      <source>Projected CRS to work in</source>
      <translation>Geprojecteerd werk-CRS</translation>
    </message>
    <message>
      <location filename="../processing/algorithm.py" line="246" />
      <source>Parameters</source>
      <translation>Parameters</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="36" />
      <source>Disclosure risk of synthetic points (CPO)</source>
      <translation>Onthullingsrisico van synthetische punten (CPO)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="39" />
      <source>Per-person probability that an intruder locates each confidential point from a synthetic set.</source>
      <translation>Kans per persoon dat een aanvaller elk vertrouwelijk punt lokaliseert aan de hand van een synthetische dataset.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="43" />
      <source>&lt;p&gt;Walder, Hanks &amp;amp; Slavković, Section 7: the intruder knows the synthetic points, the method and every confidential location but one, and wants that one within the risk radius. The risk of person k is the mass of the leave-one-out predictive density π(s | S₋ₖ, S†) on the disc of the risk radius around the truth (eq. 16), from conditional predictive ordinates: for radial sets from the confidential posterior (eqs. 17-18; each person is linked to their synthetic point by a minimal assignment within the radius, as such an intruder could; as the radial points were redrawn until inside the window, their density 1/|B_r(s) ∩ W| replaces the paper's 1/(πr²), which otherwise misstates the risk of people near the boundary), for ANS and PRS from the joint fit of the confidential and synthetic points (eqs. 19-21), with the disc quadrature of Appendix A.4.&lt;/p&gt;&lt;p&gt;Give the same METHOD, RADIUS and NOISE as were used to make the synthetic set.&lt;/p&gt;</source>
      <translation>&lt;p&gt;Walder, Hanks &amp;amp; Slavković, Sectie 7: de aanvaller kent de synthetische punten, de methode en alle vertrouwelijke locaties op één na, en wil die ene binnen de risicostraal plaatsen. Het risico van persoon k is de massa van de leave-one-out-predictieve dichtheid π(s | S₋ₖ, S†) op de schijf met de risicostraal rond de werkelijke locatie (vgl. 16), berekend uit conditionele predictieve ordinaten: voor radiale datasets uit de vertrouwelijke a-posterioriverdeling (vgl. 17-18; elke persoon wordt aan zijn synthetische punt gekoppeld door een minimale toewijzing binnen de straal, zoals zo'n aanvaller zou kunnen; omdat de radiale punten opnieuw zijn getrokken tot ze binnen het studiegebied lagen, vervangt hun dichtheid 1/|B_r(s) ∩ W| de 1/(πr²) van het artikel, die het risico van personen dicht bij de rand anders verkeerd weergeeft), voor ANS en PRS uit de gezamenlijke schatting van de vertrouwelijke en de synthetische punten (vgl. 19-21), met de schijfkwadratuur uit Appendix A.4.&lt;/p&gt;&lt;p&gt;Geef dezelfde METHOD, RADIUS en NOISE op als waarmee de synthetische dataset is gemaakt.&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="68" />
      <source>Risk per person (CONFIDENTIAL)</source>
      <translation>Risico per persoon (VERTROUWELIJK)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="70" />
      <source>The CONFIDENTIAL points with risk (probability), cpo (leave-one-out density at the true location, per squared CRS unit) and cpo_ess (effective draws behind it; below about 20 it is unstable). It shows where the people at risk live: never publish it.</source>
      <translation>De VERTROUWELIJKE punten met risk (kans), cpo (leave-one-out-dichtheid op de werkelijke locatie, per vierkante CRS-eenheid) en cpo_ess (effectieve trekkingen waarop die berust; onder ongeveer 20 is die instabiel). De laag toont waar de mensen met een risico wonen: publiceer haar nooit.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="78" />
      <source>HTML files (*.html)</source>
      <translation>HTML-bestanden (*.html)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="78" />
      <source>Report (CONFIDENTIAL)</source>
      <translation>Rapport (VERTROUWELIJK)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="80" />
      <source>Maximum and mean risk, settings and a histogram of the risks.</source>
      <translation>Maximaal en gemiddeld risico, instellingen en een histogram van de risico's.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="82" />
      <source>Maximum disclosure risk</source>
      <translation>Maximaal onthullingsrisico</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="83" />
      <source>Mean disclosure risk</source>
      <translation>Gemiddeld onthullingsrisico</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="106" />
      <source>{0}: a radial set has one point per confidential point: {1} synthetic, {2} confidential.</source>
      <translation>{0}: een radiale dataset heeft één punt per vertrouwelijk punt: {1} synthetisch, {2} vertrouwelijk.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="121" />
      <source>{0} has {1} points and {2} has {3}; the paper's sets have as many as the data.</source>
      <translation>{0} heeft {1} punten en {2} heeft er {3}; de datasets in het artikel hebben er evenveel als de gegevens.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="146" />
      <source>Disclosure risk (CONFIDENTIAL)</source>
      <translation>Onthullingsrisico (VERTROUWELIJK)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="149" />
      <source>Maximum risk {0:.4g}, mean {1:.4g}.</source>
      <translation>Maximaal risico {0:.4g}, gemiddeld {1:.4g}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="153" />
      <source>{0} risks rest on fewer than 20 effective draws; raise {1}.</source>
      <translation>{0} risico's berusten op minder dan 20 effectieve trekkingen; verhoog {1}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="156" />
      <source>Method</source>
      <translation>Methode</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="157" />
      <source>Risk radius</source>
      <translation>Risicostraal</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="158" />
      <source>Risk density</source>
      <translation>Risicodichtheid</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="159" />
      <source>Hyperparameters</source>
      <translation>Hyperparameters</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="160" />
      <source>Maximum risk</source>
      <translation>Maximaal risico</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="161" />
      <source>Mean risk</source>
      <translation>Gemiddeld risico</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="162" />
      <source>Risks resting on &lt; 20 effective draws</source>
      <translation>Risico's die berusten op &lt; 20 effectieve trekkingen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="170" />
      <source>Not for publication</source>
      <translation>Niet voor publicatie</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="170" />
      <source>Per-person risks point at the people at risk.</source>
      <translation>Risico's per persoon wijzen de mensen met een risico aan.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="171" />
      <source>Risk</source>
      <translation>Risico</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="172" />
      <source>Confidential fit</source>
      <translation>Vertrouwelijke schatting</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/disclosure_risk.py" line="173" />
      <source>Distribution of the risks</source>
      <translation>Verdeling van de risico's</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="90" />
      <source>Differentially private synthetic counts (Poisson-gamma)</source>
      <translation>Synthetische aantallen met differentiële privacy (Poisson-gamma)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="93" />
      <source>Synthetic counts</source>
      <translation>Synthetische aantallen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="99" />
      <source>Replace counts per area (or area x stratum) by ε-differentially private synthetic counts.</source>
      <translation>Vervang aantallen per gebied (of gebied x stratum) door synthetische aantallen met ε-differentiële privacy.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="103" />
      <source>&lt;p&gt;Replaces the event count of every group (an area, or one row per area and stratum such as age or sex) by synthetic counts drawn from a Poisson-gamma posterior predictive distribution, following Quick (2021), &lt;i&gt;Improving the utility of Poisson-distributed, differentially private synthetic data via prior predictive truncation&lt;/i&gt;. Each group's prior rate comes from public information (e.g. national rates); the gamma priors are made just informative enough for the release to be ε-differentially private. With truncation, each synthetic count is kept within a plausible range computed from the prior alone (eq. 9), which makes the priors far less informative, so the synthetic counts keep more of the real geographic differences.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Guarantee.&lt;/b&gt; ε-differential privacy for each synthetic data set: two data sets are neighbours when one event (one person) is moved from one group to another, the total staying the same. For any such pair, the probability of any set of synthetic counts changes by at most a factor e&lt;sup&gt;ε&lt;/sup&gt; (δ = 0 for the distribution sampled; the double-precision draw gives each probability only to within about 1e-16, so an outcome rarer than that can be drawn more or less often than it should: a δ of that order per split of the sampler's tree, not counted). The priors are calibrated with a bound proven for any number of groups (the loss from the group that loses the event plus the group that gains it, each at most ε/2); the paper's own rule (eqs. 7 and 14) comes from a two-group argument and can exceed ε with more groups, so it is not used. Populations, prior rates, the bounds and the priors are public and are written to the output, so they must be fixed without looking at the confidential counts (for example rates from an earlier census or a national rate); a prior or population field that is the count field itself is refused.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Several sets cost more.&lt;/b&gt; The L synthetic data sets are independent draws, so the output, which holds all L of them and their mean, is (L·ε)-differentially private (sequential composition). The result TOTAL_EPSILON, the layer name and the report give L·ε. (The paper draws L = 1,000 sets to average its utility measures; publishing them all would cost 1,000·ε.)&lt;/p&gt;&lt;p&gt;&lt;b&gt;Not protected:&lt;/b&gt; the total of all counts is published exactly (the mechanism keeps it invariant).&lt;/p&gt;&lt;p&gt;The quality of the synthetic counts depends on the quality of the prior rates: a group whose true count lies far outside its prior range is pulled into it.&lt;/p&gt;</source>
      <translation>&lt;p&gt;Vervangt het aantal gebeurtenissen van elke groep (een gebied, of één rij per gebied en stratum zoals leeftijd of geslacht) door synthetische aantallen die worden getrokken uit een a-posteriori-predictieve Poisson-gamma-verdeling, naar Quick (2021), &lt;i&gt;Improving the utility of Poisson-distributed, differentially private synthetic data via prior predictive truncation&lt;/i&gt;. Het a-prioricijfer van elke groep komt uit openbare informatie (bijv. landelijke cijfers); de gamma-a-prioriverdelingen worden net informatief genoeg gemaakt om de publicatie ε-differentiële privacy te geven. Met afkapping wordt elk synthetisch aantal binnen een plausibel interval gehouden dat alleen uit de a-prioriverdeling wordt berekend (vgl. 9); dat maakt de a-prioriverdelingen veel minder informatief, zodat de synthetische aantallen meer van de werkelijke geografische verschillen behouden.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Garantie.&lt;/b&gt; ε-differentiële privacy voor elke synthetische dataset: twee datasets zijn naburig als één gebeurtenis (één persoon) van de ene groep naar een andere wordt verplaatst, terwijl het totaal gelijk blijft. Voor elk zulk paar verandert de kans op elke verzameling synthetische aantallen met ten hoogste een factor e&lt;sup&gt;ε&lt;/sup&gt; (δ = 0 voor de bemonsterde verdeling; de trekking in dubbele precisie geeft elke kans slechts tot op ongeveer 1e-16 nauwkeurig, zodat een uitkomst die zeldzamer is dan dat vaker of minder vaak kan worden getrokken dan zou moeten: een δ van die orde per splitsing van de boom van de sampler, niet meegeteld). De a-prioriverdelingen worden gekalibreerd met een grens die voor elk aantal groepen bewezen is (het verlies van de groep die de gebeurtenis verliest plus dat van de groep die haar krijgt, elk ten hoogste ε/2); de eigen regel van het artikel (vgl. 7 en 14) berust op een redenering met twee groepen en kan bij meer groepen ε overschrijden, en wordt daarom niet gebruikt. Populaties, a-prioricijfers, de grenzen en de a-prioriverdelingen zijn openbaar en worden naar de uitvoer geschreven, dus ze moeten worden vastgelegd zonder naar de vertrouwelijke aantallen te kijken (bijvoorbeeld cijfers uit een eerdere volkstelling of een landelijk cijfer); een a-priori- of populatieveld dat het aantallenveld zelf is, wordt geweigerd.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Meerdere datasets kosten meer.&lt;/b&gt; De L synthetische datasets zijn onafhankelijke trekkingen, dus de uitvoer, die alle L datasets en hun gemiddelde bevat, heeft (L·ε)-differentiële privacy (sequentiële compositie). Het resultaat TOTAL_EPSILON, de laagnaam en het rapport geven L·ε. (Het artikel trekt L = 1.000 datasets om zijn bruikbaarheidsmaten te middelen; ze allemaal publiceren zou 1.000·ε kosten.)&lt;/p&gt;&lt;p&gt;&lt;b&gt;Niet beschermd:&lt;/b&gt; het totaal van alle aantallen wordt exact gepubliceerd (het mechanisme houdt het invariant).&lt;/p&gt;&lt;p&gt;De kwaliteit van de synthetische aantallen hangt af van de kwaliteit van de a-prioricijfers: een groep waarvan het ware aantal ver buiten zijn a-priori-interval ligt, wordt erin getrokken.&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="141" />
      <source>Areas (polygon layer or table)</source>
      <translation>Gebieden (polygoonlaag of tabel)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="142" />
      <source>One feature per group: an area, or an area and stratum (e.g. a table with one row per county, age group and sex). Geometry is optional and copied to the output. The exact sampler may use at most {0} GB of memory (50,000 groups took 0.7 GB in a test); a release that needs more is refused.</source>
      <translation>Eén object per groep: een gebied, of een gebied en stratum (bijv. een tabel met één rij per gemeente, leeftijdsgroep en geslacht). Geometrie is optioneel en wordt naar de uitvoer gekopieerd. De exacte sampler mag hoogstens {0} GB geheugen gebruiken (50.000 groepen namen 0,7 GB in een test); een release die meer nodig heeft wordt geweigerd.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="151" />
      <source>Count field (confidential)</source>
      <translation>Veld met aantallen (vertrouwelijk)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="153" />
      <source>The confidential number of events per group: whole numbers &gt;= 0. It is not copied to the output.</source>
      <translation>Het vertrouwelijke aantal gebeurtenissen per groep: gehele getallen &gt;= 0. Dit veld wordt niet naar de uitvoer gekopieerd.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="156" />
      <source>Population field</source>
      <translation>Populatieveld</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="157" />
      <source>The public population at risk of each group (&gt; 0), e.g. census or bridged-race estimates.</source>
      <translation>De openbare risicopopulatie van elke groep (&gt; 0), bijv. uit een volkstelling of bridged-race-schattingen.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="161" />
      <source>Prior rate field</source>
      <translation>Veld met a-prioricijfer</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="163" />
      <source>A public prior event rate per group (&gt; 0), e.g. the national rate of the group's stratum, per 'Rate per' people. Give this or the expected count field.</source>
      <translation>Een openbaar a-prioricijfer voor gebeurtenissen per groep (&gt; 0), bijv. het landelijke cijfer voor het stratum van de groep, per 'Cijfer per' personen. Geef dit veld of het veld met het verwachte aantal op.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="170" />
      <source>Prior expected count field</source>
      <translation>Veld met a priori verwacht aantal</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="172" />
      <source>A public prior expected number of events per group (&gt; 0). Give this or the prior rate field.</source>
      <translation>Een openbaar a priori verwacht aantal gebeurtenissen per groep (&gt; 0). Geef dit veld of het veld met het a-prioricijfer op.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="177" />
      <source>Fields to copy to the output</source>
      <translation>Velden die naar de uitvoer worden gekopieerd</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="184" />
      <source>Input fields copied to the publishable output, e.g. an area code and name. The output is published as it is, so leave out everything derived from the confidential counts (rates, percentages, counts by subgroup); the count field itself is refused. Empty: none; every output row has group_fid, the input feature's id, to join on. The long table (more than {0} sets) has only group_fid.</source>
      <translation>Invoervelden die naar de publiceerbare uitvoer worden gekopieerd, bijv. een gebiedscode en -naam. De uitvoer wordt gepubliceerd zoals hij is, dus laat alles weg wat uit de vertrouwelijke aantallen is afgeleid (cijfers, percentages, aantallen per subgroep); het aantallenveld zelf wordt geweigerd. Leeg: geen; elke uitvoerrij heeft group_fid, de id van het invoerobject, om op te koppelen. De lange tabel (meer dan {0} datasets) heeft alleen group_fid.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="193" />
      <source>Rate per (people)</source>
      <translation>Cijfer per (personen)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="194" />
      <source>The population the prior rates refer to: 1 for a rate per person, 100000 for a rate per 100,000.</source>
      <translation>De populatie waarop de a-prioricijfers betrekking hebben: 1 voor een cijfer per persoon, 100000 voor een cijfer per 100.000.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="198" />
      <source>Rescale prior to the total</source>
      <translation>A priori verwachte aantallen herschalen naar het totaal</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="199" />
      <source>Scale the prior expected counts so they add up to the published total, as the paper does with national rates. This uses only the total, which is public.</source>
      <translation>Schaal de a priori verwachte aantallen zo dat ze optellen tot het gepubliceerde totaal, zoals het artikel doet met landelijke cijfers. Hiervoor wordt alleen het totaal gebruikt, en dat is openbaar.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="206" />
      <source>Epsilon (ε)</source>
      <translation>Epsilon (ε)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="207" />
      <source>The privacy budget ε (at least {0:g}) of one synthetic data set; the output with L sets costs L·ε in all. Smaller is more private and less accurate.</source>
      <translation>Het privacybudget ε (minstens {0:g}) van één synthetische dataset; de uitvoer met L datasets kost in totaal L·ε. Een kleinere waarde beschermt beter, maar is minder nauwkeurig.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="213" />
      <source>Prior predictive truncation</source>
      <translation>A-priori-predictieve afkapping</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="214" />
      <source>Restrict each synthetic count to the range [L, U] of eq. (9), computed from the prior only (Quick 2021). Strongly recommended: without it the priors must be so informative that the synthetic counts mostly repeat the prior.</source>
      <translation>Beperk elk synthetisch aantal tot het interval [L, U] uit vgl. (9), dat alleen uit de a-prioriverdeling wordt berekend (Quick 2021). Sterk aanbevolen: zonder afkapping moeten de a-prioriverdelingen zo informatief zijn dat de synthetische aantallen grotendeels de a-prioriverdeling herhalen.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="223" />
      <source>Alpha (tail probability of the bounds)</source>
      <translation>Alfa (staartkans van de grenzen)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="230" />
      <source>α in (0, 1/2): L and U are the α/2 and 1 − α/2 quantiles of Poisson prior predictive distributions (eq. 9). Smaller α gives wider ranges and more informative priors. Empty: 1/I for I ≥ 3 groups (the paper's rule of thumb), 1/3 for two (α must stay below 1/2).</source>
      <translation>α in (0, 1/2): L en U zijn de α/2- en 1 − α/2-kwantielen van a-priori-predictieve Poisson-verdelingen (vgl. 9). Een kleinere α geeft bredere intervallen en informatievere a-prioriverdelingen. Leeg: 1/I bij I ≥ 3 groepen (de vuistregel uit het artikel), 1/3 bij twee (α moet onder 1/2 blijven).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="237" />
      <source>c (widening of the bounds)</source>
      <translation>c (verbreding van de grenzen)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="238" />
      <source>c &gt;= 1 widens the range: L uses the expected count divided by c, U the expected count times c. Use c &gt; 1 when the prior rates may miss large real differences (e.g. urban versus rural).</source>
      <translation>c &gt;= 1 verbreedt het interval: L gebruikt het verwachte aantal gedeeld door c, U het verwachte aantal maal c. Gebruik c &gt; 1 als de a-prioricijfers grote werkelijke verschillen kunnen missen (bijv. stad versus platteland).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="245" />
      <source>Synthetic data sets</source>
      <translation>Synthetische datasets</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="247" />
      <source>How many independent synthetic data sets L to draw; publishing them costs L·ε. Up to {0} are written as fields syn_1 … syn_L of the input features; more are written as a long table (fields group_fid, set, syn_count) without geometry. Sets × groups may be at most {1}.</source>
      <translation>Hoeveel onafhankelijke synthetische datasets L er worden getrokken; ze publiceren kost L·ε. Tot {0} worden ze weggeschreven als velden syn_1 … syn_L van de invoerobjecten; bij meer worden ze weggeschreven als lange tabel (velden group_fid, set, syn_count) zonder geometrie. Datasets × groepen mag ten hoogste {1} zijn.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="257" />
      <source>Publishable: the input features' geometry, group_fid and the fields in 'Fields to copy' (never the count field), with the synthetic counts, their mean and mean rate (per 'Rate per' people), and the public prior of every group: expected count, gamma shape a and rate b, and bounds L and U.</source>
      <translation>Publiceerbaar: de geometrie van de invoerobjecten, group_fid en de velden uit 'Velden die naar de uitvoer worden gekopieerd' (nooit het aantallenveld), met de synthetische aantallen, hun gemiddelde en het gemiddelde cijfer (per 'Cijfer per' personen), en de openbare a-prioriverdeling van elke groep: verwacht aantal, vormparameter a en inverse schaalparameter b, en grenzen L en U.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="271" />
      <source>CONFIDENTIAL HTML report for the data steward: settings, the guarantee, prior informativeness, how many true counts fell outside their bounds, and true versus synthetic rates. Do not publish.</source>
      <translation>VERTROUWELIJK HTML-rapport voor de databeheerder: instellingen, de garantie, het informatiegehalte van de a-prioriverdelingen, hoeveel ware aantallen buiten hun grenzen vielen, en ware versus synthetische cijfers. Niet publiceren.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="276" />
      <source>Epsilon of one synthetic data set</source>
      <translation>Epsilon van één synthetische dataset</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="277" />
      <source>Epsilon of the whole output (L·ε)</source>
      <translation>Epsilon van de hele uitvoer (L·ε)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="278" />
      <source>Number of groups</source>
      <translation>Aantal groepen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="279" />
      <source>Median prior shape a</source>
      <translation>Mediaan van de a-priori-vormparameter a</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="280" />
      <source>Largest prior shape a</source>
      <translation>Grootste a-priori-vormparameter a</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="290" />
      <source>{0} / {1}: give exactly one of the prior rate field and the expected count field.</source>
      <translation>{0} / {1}: geef precies één van beide op: het veld met het a-prioricijfer of het veld met het verwachte aantal.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="296" />
      <source>{0}: '{1}' is the count field; the confidential counts are never copied to the output.</source>
      <translation>{0}: '{1}' is het aantallenveld; de vertrouwelijke aantallen worden nooit naar de uitvoer gekopieerd.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="302" />
      <source>{0}: '{1}' is the count field. The prior and the populations are published, so they must not come from the confidential counts; use public rates or populations.</source>
      <translation>{0}: '{1}' is het aantallenveld. De a-prioriverdeling en de populaties worden gepubliceerd en mogen dus niet uit de vertrouwelijke aantallen komen; gebruik openbare cijfers of populaties.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="308" />
      <source>{0}: alpha must lie strictly between 0 and 1/2, got {1}.</source>
      <translation>{0}: alfa moet strikt tussen 0 en 1/2 liggen; opgegeven: {1}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="336" />
      <source>{0}: feature {1} has no value in '{2}'.</source>
      <translation>{0}: object {1} heeft geen waarde in '{2}'.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="340" />
      <source>{0}: need at least two groups (features).</source>
      <translation>{0}: er zijn ten minste twee groepen (objecten) nodig.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="359" />
      <source>{0}: {1} sets of {2} groups are {3} synthetic counts; at most {4} can be made in one run.</source>
      <translation>{0}: {1} datasets van {2} groepen zijn {3} synthetische aantallen; in één run kunnen er ten hoogste {4} worden gemaakt.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="379" />
      <source>{0} groups, total {1}: median prior shape a = {2:.4g}, largest {3:.4g}.</source>
      <translation>{0} groepen, totaal {1}: mediaan van de a-priori-vormparameter a = {2:.4g}, grootste {3:.4g}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="396" />
      <source>CONFIDENTIAL: DP synthetic counts, steward's report</source>
      <translation>VERTROUWELIJK: synthetische DP-aantallen, rapport voor de databeheerder</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="430" />
      <source>{0}: the layer has no field '{1}'.</source>
      <translation>{0}: de laag heeft geen veld '{1}'.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="443" />
      <source>{0}: not copied, because more than {1} sets are written as a long table (join on group_fid).</source>
      <translation>{0}: niet gekopieerd, omdat meer dan {1} datasets als lange tabel worden weggeschreven (koppel op group_fid).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="470" />
      <source>{0}: the kept field '{1}' has the name of an output field; leave it out or rename it first.</source>
      <translation>{0}: het behouden veld '{1}' heeft de naam van een uitvoerveld; laat het weg of geef het eerst een andere naam.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="532" />
      <source>DP synthetic counts (ε = {0:g})</source>
      <translation>Synthetische DP-aantallen (ε = {0:g})</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_counts.py" line="534" />
      <source>DP synthetic counts (total ε = {0:g}: {1} sets of ε = {2:g})</source>
      <translation>Synthetische DP-aantallen (totale ε = {0:g}: {1} datasets van ε = {2:g})</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="86" />
      <source>Differentially private synthetic points (kernel, LGCP, Laplace)</source>
      <translation>Synthetische punten met differentiële privacy (kernel, LGCP, Laplace)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="89" />
      <source>Synthetic points</source>
      <translation>Synthetische punten</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="95" />
      <source>Replace a point pattern by synthetic points that are (ε, δ)-differentially private when one point moves by at most α (for the LGCP method nominally, see the help).</source>
      <translation>Vervang een puntpatroon door synthetische punten met (ε, δ)-differentiële privacy wanneer één punt over ten hoogste α wordt verplaatst (voor de LGCP-methode nominaal, zie de help).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="102" />
      <source>&lt;p&gt;Draws a synthetic point pattern with one of the three differentially private synthesizers of Kim &amp;amp; Lim, &lt;i&gt;Differentially private synthesis of spatial point processes&lt;/i&gt; (Sections 3.2–3.3). You state ε, δ and α; the tool derives the smoothing the guarantee needs and reports it.&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;Kernel&lt;/b&gt; (Section 3.2.1, Theorem 3.6): a Poisson process whose intensity is a Gaussian kernel estimate with Diggle's edge correction. The bandwidth is the smallest one that satisfies (2αB + α²)/(2h²) + r&lt;sub&gt;α&lt;/sub&gt;(h) ≤ ε/k (B: the window's diameter; k: the 1 − δ quantile of Poisson(n); r&lt;sub&gt;α&lt;/sub&gt; is replaced by a safe upper bound). Privacy needs large bandwidths: the synthetic points keep the broad pattern only. The coordinates are rounded to a grid of h/1024, so that no low-order bits of a point's position plus noise are published.&lt;/li&gt;&lt;li&gt;&lt;b&gt;LGCP&lt;/b&gt; (Section 3.3.1, Theorem 3.8): a log-Gaussian Cox process on a right-triangle lattice of knots, with a Gaussian covariance whose ratio σ/l is fixed by the privacy condition; one draw of the fitted field, then a Poisson process from it. The theorem is stated for an exact posterior draw, and even there its proof has gaps (a bound that must hold for every β, and the bad event's probability taken under the prior rather than the posterior); the draw here comes from a fast (Laplace) approximation of the posterior. The stated (ε, δ) is therefore &lt;b&gt;nominal, not proven&lt;/b&gt; (Kim &amp;amp; Lim's own draws come from a finite MCMC chain, not exact either).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Laplace&lt;/b&gt; (Section 3.3.2, Theorem 3.10): points per grid cell divided by the cell area, plus Laplace noise, clamped at 0; then a Poisson process with that intensity. Pure ε-differential privacy (δ = 0 for the distribution sampled; numpy's double-precision Laplace draw never exceeds 36 noise scales, which adds a δ of the order of e&lt;sup&gt;ε−36&lt;/sup&gt;, below 1e-15 at ε = 1, not counted) for every α. At small ε the noise in empty cells creates many points; a share of ε can buy a noisy total the intensity is rescaled to (beyond the paper).&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;&lt;b&gt;Guarantee.&lt;/b&gt; (ε, δ)-differential privacy under the α-neighbourhood: two data sets are neighbours when one point is moved by at most α (in the CRS units). For any such pair, the probability of any synthetic pattern changes by at most a factor e&lt;sup&gt;ε&lt;/sup&gt;, except with probability δ (for the LGCP method: nominally, see above).&lt;/p&gt;&lt;p&gt;&lt;b&gt;Not protected:&lt;/b&gt; the number of points n. A neighbour moves a point but never adds or removes one, so n is public under this guarantee (the kernel and LGCP methods use it, and the default δ = 1/n reveals it). The Laplace method alone also bounds the effect of adding or removing a point, which its report states. Every synthetic pattern is a separate release: publishing several spends the budget several times.&lt;/p&gt;&lt;p&gt;No attribute of the input is copied: the output has only a synthetic identifier.&lt;/p&gt;</source>
      <translation>&lt;p&gt;Trekt een synthetisch puntpatroon met een van de drie synthesemethoden met differentiële privacy van Kim &amp;amp; Lim, &lt;i&gt;Differentially private synthesis of spatial point processes&lt;/i&gt; (Secties 3.2–3.3). U geeft ε, δ en α op; het hulpmiddel leidt de gladding af die de garantie nodig heeft en rapporteert die.&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;Kernel&lt;/b&gt; (Sectie 3.2.1, Stelling 3.6): een Poisson-proces waarvan de intensiteit een Gaussische kernelschatting met de randcorrectie van Diggle is. De bandbreedte is de kleinste die voldoet aan (2αB + α²)/(2h²) + r&lt;sub&gt;α&lt;/sub&gt;(h) ≤ ε/k (B: de diameter van het studiegebied; k: het 1 − δ-kwantiel van Poisson(n); r&lt;sub&gt;α&lt;/sub&gt; wordt vervangen door een veilige bovengrens). Privacy vereist grote bandbreedtes: de synthetische punten behouden alleen het globale patroon. De coördinaten worden afgerond op een raster van h/1024, zodat er geen laagste bits van de positie van een punt plus ruis worden gepubliceerd.&lt;/li&gt;&lt;li&gt;&lt;b&gt;LGCP&lt;/b&gt; (Sectie 3.3.1, Stelling 3.8): een log-Gaussisch Cox-proces op een rooster van knopen met rechthoekige driehoeken, met een Gaussische covariantie waarvan de verhouding σ/l door de privacyvoorwaarde wordt vastgelegd; één trekking van het geschatte veld, en daaruit een Poisson-proces. De stelling is geformuleerd voor een exacte trekking uit de a-posterioriverdeling, en zelfs daar heeft het bewijs lacunes (een grens die voor elke β moet gelden, en de kans op de ongunstige gebeurtenis berekend onder de a-prioriverdeling in plaats van de a-posterioriverdeling); de trekking komt hier uit een snelle (Laplace-)benadering van de a-posterioriverdeling. De opgegeven (ε, δ) is daarom &lt;b&gt;nominaal, niet bewezen&lt;/b&gt; (de trekkingen van Kim &amp;amp; Lim zelf komen uit een eindige MCMC-keten en zijn evenmin exact).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Laplace&lt;/b&gt; (Sectie 3.3.2, Stelling 3.10): punten per rastercel gedeeld door de oppervlakte van de cel, plus Laplace-ruis, afgekapt op 0; daarna een Poisson-proces met die intensiteit. Zuivere ε-differentiële privacy (δ = 0 voor de bemonsterde verdeling; de Laplace-trekking van numpy in dubbele precisie overschrijdt nooit 36 ruisschalen, wat een δ in de orde van e&lt;sup&gt;ε−36&lt;/sup&gt; toevoegt, onder 1e-15 bij ε = 1, niet meegeteld) voor elke α. Bij een kleine ε maakt de ruis in lege cellen veel punten aan; met een deel van ε kan een totaal met ruis worden gekocht waarnaar de intensiteit wordt herschaald (een uitbreiding op het artikel).&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;&lt;b&gt;Garantie.&lt;/b&gt; (ε, δ)-differentiële privacy onder de α-naburigheid: twee datasets zijn naburig als één punt over ten hoogste α wordt verplaatst (in de eenheden van het CRS). Voor elk zulk paar verandert de kans op elk synthetisch patroon met ten hoogste een factor e&lt;sup&gt;ε&lt;/sup&gt;, behalve met kans δ (voor de LGCP-methode: nominaal, zie hierboven).&lt;/p&gt;&lt;p&gt;&lt;b&gt;Niet beschermd:&lt;/b&gt; het aantal punten n. Een naburige dataset verplaatst een punt, maar voegt er nooit een toe en verwijdert er nooit een, dus n is onder deze garantie openbaar (de kernel- en LGCP-methode gebruiken het, en de standaard-δ = 1/n verraadt het). Alleen de Laplace-methode begrenst ook het effect van het toevoegen of verwijderen van een punt, wat haar rapport vermeldt. Elk synthetisch patroon is een afzonderlijke publicatie: er meerdere publiceren verbruikt het budget meerdere keren.&lt;/p&gt;&lt;p&gt;Er wordt geen attribuut van de invoer gekopieerd: de uitvoer heeft alleen een synthetische identificatiecode.&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="144" />
      <source>Point layer</source>
      <translation>Puntenlaag</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="145" />
      <source>The confidential points (cases, addresses, ...). Only their locations are used.</source>
      <translation>De vertrouwelijke punten (ziektegevallen, adressen, ...). Alleen hun locaties worden gebruikt.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="148" />
      <source>Study window</source>
      <translation>Studiegebied</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="149" />
      <source>Polygons of the study region (holes allowed); every point must lie inside. It is public: it fixes the diameter B, the cells and the lattice. Empty: the points' bounding box enlarged by 5% of its larger side on each side (which depends on the extreme points, so the layer is named NOT PRIVATE; give a public window for a real release). Not used with a NETWORK.</source>
      <translation>Polygonen van het studiegebied (gaten toegestaan); elk punt moet erbinnen liggen. Het is openbaar: het legt de diameter B, de cellen en het rooster vast. Leeg: de omhullende rechthoek van de punten, aan elke kant vergroot met 5% van de langste zijde (die van de uiterste punten afhangt, dus heet de laag NIET PRIVÉ; geef een openbaar studiegebied op voor een echte publicatie). Niet gebruikt bij een NETWORK.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="162" />
      <source>Kernel Poisson synthesizer (Theorem 3.6)</source>
      <translation>Kernel-Poisson-synthese (Stelling 3.6)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="163" />
      <source>LGCP Cox synthesizer (Theorem 3.8)</source>
      <translation>LGCP-Cox-synthese (Stelling 3.8)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="164" />
      <source>Laplace Cox synthesizer (Theorem 3.10)</source>
      <translation>Laplace-Cox-synthese (Stelling 3.10)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="169" />
      <source>Kernel: smooth, needs ε, δ and α. LGCP: model-based, needs ε, δ and α. Laplace: cell counts with noise, pure ε-DP (δ = 0 for the distribution sampled) for every α.</source>
      <translation>Kernel: glad, vereist ε, δ en α. LGCP: modelgebaseerd, vereist ε, δ en α. Laplace: celaantallen met ruis, zuivere ε-DP (δ = 0 voor de bemonsterde verdeling) voor elke α.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="176" />
      <source>The privacy budget ε (at least {0:g}) of one synthetic pattern. Smaller is more private and less accurate.</source>
      <translation>Het privacybudget ε (minstens {0:g}) van één synthetisch patroon. Een kleinere waarde beschermt beter, maar is minder nauwkeurig.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="182" />
      <source>Delta (δ)</source>
      <translation>Delta (δ)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="183" />
      <source>The probability δ in (0, 1) with which the ε bound may fail (kernel and LGCP). Empty: 1/n for n points, as in Kim &amp; Lim's experiments; that is weak (a mechanism that publishes one random person's point unprotected meets δ = 1/n), so for a real release give δ well below 1/n, e.g. 1/n² or 1e-6. Not used by the Laplace method, which is pure ε-DP (δ = 0 for the distribution sampled).</source>
      <translation>De kans δ in (0, 1) waarmee de ε-grens mag falen (kernel en LGCP). Leeg: 1/n bij n punten, zoals in de experimenten van Kim &amp; Lim; dat is zwak (een mechanisme dat het punt van één willekeurige persoon onbeschermd publiceert, voldoet aan δ = 1/n), dus geef voor een echte publicatie een δ ruim onder 1/n, bijv. 1/n² of 1e-6. Niet gebruikt door de Laplace-methode, die zuivere ε-DP is (δ = 0 voor de bemonsterde verdeling).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="193" />
      <source>Alpha (α, neighbourhood radius)</source>
      <translation>Alfa (α, naburigheidsstraal)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="195" />
      <source>α &gt; 0: how far one point may move between neighbouring data sets, in the units of the layer's (or working) CRS, e.g. metres. The guarantee hides any one point's location within α; a larger α needs more smoothing. Required for the kernel and LGCP methods; the Laplace guarantee holds for every α (a value given is only reported).</source>
      <translation>α &gt; 0: hoe ver één punt mag worden verplaatst tussen naburige datasets, in de eenheden van het CRS van de laag (of het werk-CRS), bijv. meters. De garantie verbergt de locatie van elk afzonderlijk punt binnen α; een grotere α vereist meer gladding. Verplicht voor de kernel- en LGCP-methode; de Laplace-garantie geldt voor elke α (een opgegeven waarde wordt alleen gerapporteerd).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="203" />
      <source>Cell size (Laplace)</source>
      <translation>Celgrootte (Laplace)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="204" />
      <source>Side of the square cells of the Laplace method, in CRS units. Cells are clipped to the window and slivers under 1/4 of a cell are merged into a neighbour. Empty: 1/10 of the window's larger side (Kim &amp; Lim's 11 x 11 knots).</source>
      <translation>Zijde van de vierkante cellen van de Laplace-methode, in CRS-eenheden. De cellen worden bijgesneden tot het studiegebied en snippers kleiner dan 1/4 cel worden samengevoegd met een buurcel. Leeg: 1/10 van de langste zijde van het studiegebied (de 11 x 11 knopen van Kim &amp; Lim).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="212" />
      <source>Knots per dimension (LGCP)</source>
      <translation>Knopen per dimensie (LGCP)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="214" />
      <source>Number of lattice knots along each side of the window's bounding box for the LGCP method (Kim &amp; Lim use 11), at most {0}. More knots give a finer field and a smaller σ/l; the field is dense, so its cost grows steeply (about 2 s at 21, 30 s at 41, a minute at 45).</source>
      <translation>Aantal roosterknopen langs elke zijde van de omhullende rechthoek van het studiegebied voor de LGCP-methode (Kim &amp; Lim gebruiken er 11), ten hoogste {0}. Meer knopen geven een fijner veld en een kleinere σ/l; het veld is dicht, dus de rekentijd stijgt snel (ongeveer 2 s bij 21, 30 s bij 41, een minuut bij 45).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="221" />
      <source>Bandwidth (kernel)</source>
      <translation>Bandbreedte (kernel)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="222" />
      <source>Standard deviation h of the Gaussian kernel, in CRS units. Empty: the smallest bandwidth that gives the guarantee (recommended). A larger one is allowed (smoother, still private); a smaller one is refused.</source>
      <translation>Standaardafwijking h van de Gaussische kernel, in CRS-eenheden. Leeg: de kleinste bandbreedte die de garantie geeft (aanbevolen). Een grotere is toegestaan (gladder, nog steeds privacyveilig); een kleinere wordt geweigerd.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="231" />
      <source>Share of ε for a noisy total (Laplace)</source>
      <translation>Deel van ε voor een totaal met ruis (Laplace)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="233" />
      <source>s in [0, 1): spend s·ε on a noisy count of all points and rescale the intensity to it, which removes the surplus of points that the clamped noise creates at small ε. The cells get (1 − s)·ε. 0: Kim &amp; Lim's mechanism. The report states the composed guarantee.</source>
      <translation>s in [0, 1): besteed s·ε aan een aantal met ruis van alle punten en herschaal de intensiteit daarnaar; dat verwijdert het overschot aan punten dat de afgekapte ruis bij een kleine ε veroorzaakt. De cellen krijgen (1 − s)·ε. 0: het mechanisme van Kim &amp; Lim. Het rapport vermeldt de samengestelde garantie.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="241" />
      <source>Needed only when the layer is in degrees: α, the cell size and the bandwidth are then in this CRS's units; the output is written back in the layer's CRS.</source>
      <translation>Alleen nodig als de laag in graden is: α, de celgrootte en de bandbreedte zijn dan in de eenheden van dit CRS; de uitvoer wordt teruggeschreven in het CRS van de laag.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="250" />
      <source>Publishable: the synthetic points in the layer's CRS, with one field syn_id. No attribute of the input is copied.</source>
      <translation>Publiceerbaar: de synthetische punten in het CRS van de laag, met één veld syn_id. Er wordt geen attribuut van de invoer gekopieerd.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="257" />
      <source>Report</source>
      <translation>Rapport</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="259" />
      <source>HTML report: the guarantee in words, ε, δ, α, the calibrated quantities, the number of synthetic points and a map of them. It holds no original point; for the kernel and LGCP methods it prints n, which this guarantee does not protect.</source>
      <translation>HTML-rapport: de garantie in woorden, ε, δ, α, de gekalibreerde grootheden, het aantal synthetische punten en een kaart daarvan. Het bevat geen enkel oorspronkelijk punt; bij de kernel- en LGCP-methode vermeldt het n, dat deze garantie niet beschermt.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="265" />
      <source>Epsilon</source>
      <translation>Epsilon</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="266" />
      <source>Delta (0 for Laplace)</source>
      <translation>Delta (0 bij Laplace)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="267" />
      <source>Alpha (NaN if not given for Laplace)</source>
      <translation>Alfa (NaN als niet opgegeven bij Laplace)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="268" />
      <source>Number of synthetic points</source>
      <translation>Aantal synthetische punten</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="269" />
      <source>Kernel bandwidth used (NaN for other methods)</source>
      <translation>Gebruikte kernelbandbreedte (NaN bij andere methoden)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="270" />
      <source>LGCP ratio σ/l (NaN for other methods)</source>
      <translation>LGCP-verhouding σ/l (NaN bij andere methoden)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="271" />
      <source>Laplace noise scale (NaN for other methods)</source>
      <translation>Schaal van de Laplace-ruis (NaN bij andere methoden)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="274" />
      <source>Laplace ε when a point is added or removed (NaN for other methods)</source>
      <translation>Laplace-ε bij het toevoegen of verwijderen van een punt (NaN bij andere methoden)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="286" />
      <source>{0}: epsilon must be a number of at least {1:g}, got {2}.</source>
      <translation>{0}: epsilon moet een getal van minstens {1:g} zijn; opgegeven: {2}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="291" />
      <source>{0}: delta must lie strictly between 0 and 1, got {1}.</source>
      <translation>{0}: delta moet strikt tussen 0 en 1 liggen; opgegeven: {1}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="293" />
      <source>{0}: the kernel and LGCP methods need the neighbourhood radius alpha &gt; 0 (in CRS units).</source>
      <translation>{0}: de kernel- en LGCP-methode vereisen de naburigheidsstraal alfa &gt; 0 (in CRS-eenheden).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="299" />
      <source>{0}: must be a distance &gt; 0, got {1}.</source>
      <translation>{0}: moet een afstand &gt; 0 zijn; opgegeven: {1}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="302" />
      <source>{0}: the share must lie in [0, 1), got {1}.</source>
      <translation>{0}: het deel moet in [0, 1) liggen; opgegeven: {1}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="316" />
      <source>No {0} given: the window is the points' bounding box, so its extent follows the extreme confidential points. Give a public {0} for a real release.</source>
      <translation>Geen {0} opgegeven: het studiegebied is de omhullende rechthoek van de punten, dus de omvang ervan volgt de uiterste vertrouwelijke punten. Geef voor een echte publicatie een openbaar {0} op.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="329" />
      <source>{0}: some points lie outside the window (how many is not shown: the Laplace method protects the number of points); clip them to it first.</source>
      <translation>{0}: enkele punten liggen buiten het venster (hoeveel wordt niet getoond: de Laplace-methode beschermt het aantal punten); knip ze er eerst op bij.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="392" />
      <source>Differentially private synthetic points</source>
      <translation>Synthetische punten met differentiële privacy</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="424" />
      <source>{0}: one point gives the default δ = 1/n = 1, which protects nothing.</source>
      <translation>{0}: één punt geeft de standaard-δ = 1/n = 1, die niets beschermt.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="428" />
      <source>{0} empty: using 1/n = {1:.6g}, as Kim &amp; Lim's experiments do. That is weak: δ = 1/n allows publishing one random person's point unprotected. For a real release give a smaller {0} (e.g. 1/n² or 1e-6).</source>
      <translation>{0} leeg: 1/n = {1:.6g} wordt gebruikt, zoals in de experimenten van Kim &amp; Lim. Dat is zwak: δ = 1/n staat toe dat het punt van één willekeurige persoon onbeschermd wordt gepubliceerd. Geef voor een echte publicatie een kleinere {0} (bijv. 1/n² of 1e-6).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="436" />
      <source>δ = {0:.3g} is large: the guarantee may fail with probability up to δ, and δ ≥ 1/n allows releasing a whole point unprotected. Give a smaller {1} (e.g. well below 1/n).</source>
      <translation>δ = {0:.3g} is groot: de garantie kan met een kans tot δ falen, en δ ≥ 1/n staat toe dat een heel punt onbeschermd wordt gepubliceerd. Geef een kleinere {1} (bijv. ruim onder 1/n).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="454" />
      <source>{0} is not used by the {1} method.</source>
      <translation>{0} wordt niet gebruikt door de methode {1}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="473" />
      <source>The bandwidth {0:.6g} is far wider than the window: at most {1:.2g} of a kernel lies inside it, so every synthetic point needs at least {2:.2g} draws; the run may be slow (it can be cancelled). {3}</source>
      <translation>De bandbreedte {0:.6g} is veel breder dan het studiegebied: ten hoogste {1:.2g} van een kernel ligt erbinnen, dus elk synthetisch punt vraagt ten minste {2:.2g} trekkingen; de berekening kan traag zijn (ze kan worden geannuleerd). {3}</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="481" />
      <source>A smaller {0} spreads the points as evenly.</source>
      <translation>Een kleinere {0} verspreidt de punten even gelijkmatig.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="483" />
      <source>A larger {0} or a smaller {1} gives a smaller bandwidth.</source>
      <translation>Een grotere {0} of een kleinere {1} geeft een kleinere bandbreedte.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="490" />
      <source>A corner of the window keeps only {0:.2g} of a kernel of bandwidth {1:.6g} inside it (a spike or a corridor far narrower than the bandwidth). A point there needs about {2:.2g} draws; the run may be slow (it can be cancelled). Simplifying the window avoids it.</source>
      <translation>Een hoek van het studiegebied houdt maar {0:.2g} van een kernel met bandbreedte {1:.6g} binnen het gebied (een uitsteeksel of een gang die veel smaller is dan de bandbreedte). Een punt daar vraagt ongeveer {2:.2g} trekkingen; de berekening kan traag zijn (ze kan worden geannuleerd). Een eenvoudiger studiegebied voorkomt dit.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="541" />
      <source>window from the data</source>
      <translation>venster uit de gegevens</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/dp_points.py" line="586" />
      <source>DP synthetic points ({0}, ε = {1:g})</source>
      <translation>Synthetische DP-punten ({0}, ε = {1:g})</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="84" />
      <source>Fit a log-Gaussian Cox process</source>
      <translation>Log-Gaussisch Cox-proces schatten</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="87" />
      <source>Point process models</source>
      <translation>Puntprocesmodellen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="93" />
      <source>Bayesian fit of an LGCP (SPDE Matérn field, covariates, offset) to a point pattern.</source>
      <translation>Bayesiaanse schatting van een LGCP (SPDE-Matérnveld, covariaten, offset) op basis van een puntpatroon.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="97" />
      <source>&lt;p&gt;Fits log λ(s) = offset(s) + x(s)'β + w(s), where w is a Gaussian field with Matérn covariance (smoothness 1) represented on a triangular mesh by the SPDE approach (Lindgren et al. 2011; Walder et al., Appendix A.1), with unknown effective range and marginal variance. The fast method integrates Laplace approximations over a grid of the two hyperparameters, or INLA's central composite design (advanced), and draws independent posterior samples. The model file feeds the synthesis tools.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Not a privacy mechanism.&lt;/b&gt; The model, intensity map and report are derived from the confidential points and are for the analyst: do not publish them. Publish synthetic points made from the model instead.&lt;/p&gt;</source>
      <translation>&lt;p&gt;Schat log λ(s) = offset(s) + x(s)'β + w(s), waarbij w een Gaussisch veld met Matérn-covariantie (gladheid 1) is, weergegeven op een driehoeksnet via de SPDE-benadering (Lindgren et al. 2011; Walder et al., Appendix A.1), met onbekend effectief bereik en onbekende marginale variantie. De snelle methode integreert Laplace-benaderingen over een rooster van de twee hyperparameters, of over het centraal samengestelde ontwerp van INLA (geavanceerd), en trekt onafhankelijke steekproeven uit de a-posterioriverdeling. Het modelbestand dient als invoer voor de synthesehulpmiddelen.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Geen privacymechanisme.&lt;/b&gt; Het model, de intensiteitskaart en het rapport zijn afgeleid van de vertrouwelijke punten en zijn bedoeld voor de analist: publiceer ze niet. Publiceer in plaats daarvan synthetische punten die uit het model zijn gemaakt.&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="115" />
      <source>The confidential points (cases, crimes, ...). At least 10.</source>
      <translation>De vertrouwelijke punten (ziektegevallen, misdrijven, ...). Ten minste 10.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="119" />
      <source>Polygons of the study region (holes allowed); every point must lie inside. Empty: the points' bounding box enlarged by 5%.</source>
      <translation>Polygonen van het studiegebied (gaten toegestaan); elk punt moet erbinnen liggen. Leeg: de omhullende rechthoek van de punten, vergroot met 5%.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="125" />
      <source>Covariate rasters</source>
      <translation>Covariaatrasters</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="126" />
      <source>Rasters (band 1) used as covariates; each must cover the whole window. Reprojected to the working CRS if needed.</source>
      <translation>Rasters (band 1) die als covariaten worden gebruikt; elk raster moet het hele studiegebied bedekken. Zo nodig geherprojecteerd naar het werk-CRS.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="132" />
      <source>Distance to features</source>
      <translation>Afstand tot objecten</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="133" />
      <source>Adds the covariate 'distance to the nearest feature of this layer' (points, lines or polygon boundaries), e.g. John Snow's Broad Street pump.</source>
      <translation>Voegt de covariaat 'afstand tot het dichtstbijzijnde object van deze laag' toe (punten, lijnen of polygoongrenzen), bijv. de pomp in Broad Street van John Snow.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="139" />
      <source>Offset raster (log scale)</source>
      <translation>Offsetraster (logschaal)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="140" />
      <source>Known log-intensity offset, e.g. log population density; must cover the window.</source>
      <translation>Bekende offset van de log-intensiteit, bijv. de logaritme van de bevolkingsdichtheid; moet het studiegebied bedekken.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="143" />
      <source>Largest mesh edge</source>
      <translation>Langste zijde van het driehoeksnet</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="144" />
      <source>Mesh resolution inside the window, in CRS units. Empty: 1/40 of the window's larger side. Smaller is more accurate and slower (the number of nodes grows as 1/edge²): the fast method with 1,000 draws took about 3 s for 2,000 nodes, 13 s for 8,000, 40 s for 20,000, under 3 minutes for 50,000 and 6-7 minutes for 100,000 on a 2-core machine (its time grows faster than the nodes); more than 50,000 nodes draw a warning and more than 100,000 are refused.</source>
      <translation>Resolutie van het driehoeksnet binnen het studiegebied, in CRS-eenheden. Leeg: 1/40 van de langste zijde van het studiegebied. Kleiner is nauwkeuriger en trager (het aantal knopen groeit als 1/zijde²): de snelle methode met 1.000 trekkingen duurde ongeveer 3 s voor 2.000 knopen, 13 s voor 8.000, 40 s voor 20.000, minder dan 3 minuten voor 50.000 en 6-7 minuten voor 100.000 op een machine met 2 kernen (de tijd groeit sneller dan het aantal knopen); meer dan 50.000 knopen geven een waarschuwing en meer dan 100.000 worden geweigerd.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="154" />
      <source>Prior median of the range</source>
      <translation>A-priorimediaan van het bereik</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="156" />
      <source>Centre (&gt; 0, in CRS units) of the log-normal prior on the effective range (Walder et al., Appendix A.5). Empty: 1/5 of the window's larger side.</source>
      <translation>Centrum (&gt; 0, in CRS-eenheden) van de lognormale a-prioriverdeling van het effectieve bereik (Walder et al., Appendix A.5). Leeg: 1/5 van de langste zijde van het studiegebied.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="163" />
      <source>Prior median of the field's standard deviation</source>
      <translation>A-priorimediaan van de standaardafwijking van het veld</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="165" />
      <source>Centre (&gt; 0) of the log-normal prior on the marginal standard deviation of the field, which is on the scale of the log intensity (dimensionless).</source>
      <translation>Centrum (&gt; 0) van de lognormale a-prioriverdeling van de marginale standaardafwijking van het veld, dat op de schaal van de log-intensiteit ligt (dimensieloos).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="173" />
      <source>Prior on range and standard deviation</source>
      <translation>A-prioriverdeling van bereik en standaardafwijking</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="174" />
      <source>Log-normal (Walder et al., Appendix A.5)</source>
      <translation>Lognormaal (Walder et al., Appendix A.5)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="174" />
      <source>Penalised complexity (Fuglstad et al. 2019)</source>
      <translation>Penalised complexity (Fuglstad et al. 2019)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="178" />
      <source>Log-normal: log-sd 1 around the two medians. Penalised complexity: P(range &lt; median) = 0.5 and P(sd &gt; median) = 0.05, which shrinks towards a smooth, weak field.</source>
      <translation>Lognormaal: log-sd 1 rond de twee medianen. Penalised complexity: P(bereik &lt; mediaan) = 0.5 en P(sd &gt; mediaan) = 0.05, wat krimpt naar een glad, zwak veld.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="187" />
      <source>Integration of the intensity</source>
      <translation>Integratie van de intensiteit</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="189" />
      <source>Edge midpoints (accurate)</source>
      <translation>Middens van de zijden (nauwkeurig)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="190" />
      <source>Mesh nodes (dual mesh, as in the papers)</source>
      <translation>Knopen van het driehoeksnet (duaal net, zoals in de artikelen)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="191" />
      <source>Nodes, midpoints and centroids (degree 3)</source>
      <translation>Knopen, middens en zwaartepunten (graad 3)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="196" />
      <source>Quadrature of the intensity integral in the likelihood. The papers' dual-mesh rule overestimates the integral of a rough field and so the range; edge midpoints do not. Edge midpoints do not see the mesh nodes, so a field with spikes at single nodes can fool them: the fit stays away from such fields (hyperparameters where they occur are left out) and, if the posterior leans into them (a clustered pattern), the fast method refits with the degree-3 rule and says so (MCMC warns). The degree-3 rule sees the nodes, but it overestimates the integral of rough fields by 1-3%, which lengthened the range by one posterior sd on John Snow's data.</source>
      <translation>Kwadratuur van de integraal van de intensiteit in de likelihood. De duale-meshregel uit de artikelen overschat de integraal van een ruw veld en daarmee het bereik; ribbemiddens doen dat niet. Ribbemiddens zien de knopen van de mesh niet, dus een veld met pieken op afzonderlijke knopen kan ze misleiden: de fit blijft weg van zulke velden (hyperparameters waar ze optreden worden weggelaten) en als de a-posterioriverdeling ernaar overhelt (een geclusterd patroon), fit de snelle methode opnieuw met de graad-3-regel en meldt dat (MCMC waarschuwt). De graad-3-regel ziet de knopen wel, maar overschat de integraal van ruwe velden met 1-3%, wat op de gegevens van John Snow het bereik met één a-posteriori-standaardafwijking verlengde.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="211" />
      <source>Exact MCMC (slower; reference)</source>
      <translation>Exacte MCMC (langzamer; referentie)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="211" />
      <source>Fast (Laplace approximations)</source>
      <translation>Snel (Laplace-benaderingen)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="215" />
      <source>Fast: Laplace approximations integrated over the hyperparameters, independent draws, seconds. MCMC: exact Metropolis-Hastings sampler (2 chains) with R-hat and effective sample sizes in the report; minutes.</source>
      <translation>Snel: Laplace-benaderingen geïntegreerd over de hyperparameters, onafhankelijke trekkingen, seconden. MCMC: exacte Metropolis-Hastings-sampler (2 ketens) met R-hat en effectieve steekproefomvang in het rapport; minuten.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="224" />
      <source>Integration over the range and standard deviation (fast method)</source>
      <translation>Integratie over het bereik en de standaardafwijking (snelle methode)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="226" />
      <source>Grid (about 100 points)</source>
      <translation>Rooster (ongeveer 100 punten)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="227" />
      <source>Central composite design (9 points, INLA)</source>
      <translation>Centraal samengesteld ontwerp (9 punten, INLA)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="229" />
      <source>Automatic: grid below 5,000 mesh nodes, central composite design from there on</source>
      <translation>Automatisch: rooster onder 5.000 knopen, daarboven het centraal samengestelde ontwerp</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="234" />
      <source>How the fast method integrates over the field's range and standard deviation. Grid: Laplace fits on a grid of 0.75-sd steps until the posterior has fallen by e^8 (about 100 points). Central composite design: INLA's design of 9 points around the mode, stretched for skewness, with a split-normal posterior for the two hyperparameters: about a third of the grid's Laplace fits and time, with posterior summaries that agreed with the exact MCMC sampler about as well as the grid's on John Snow's data and a simulated field. Automatic (default): the grid on meshes below 5,000 nodes, where it takes seconds, and the design on larger ones (8,000 nodes: 11-13 s against the grid's 39-68 s). Ignored by MCMC. Either way the model, intensity and report are derived from the confidential points: no privacy guarantee, do not publish them.</source>
      <translation>Hoe de snelle methode integreert over het bereik en de standaardafwijking van het veld. Rooster: Laplace-schattingen op een rooster met stappen van 0,75 sd tot de a-posterioridichtheid met een factor e^8 is gedaald (ongeveer 100 punten). Centraal samengesteld ontwerp: het ontwerp van INLA met 9 punten rond de modus, uitgerekt voor scheefheid, met een gesplitst-normale a-posterioriverdeling voor de twee hyperparameters: ongeveer een derde van de Laplace-schattingen en de tijd van het rooster, met a-posteriorisamenvattingen die even goed met de exacte MCMC-sampler overeenkwamen als die van het rooster, op de gegevens van John Snow en op een gesimuleerd veld. Automatisch (standaard): het rooster op netten met minder dan 5.000 knopen, waar het seconden duurt, en het ontwerp op grotere (8.000 knopen: 11-13 s tegen 39-68 s voor het rooster). Genegeerd door MCMC. In beide gevallen zijn het model, de intensiteit en het rapport afgeleid van de vertrouwelijke punten: geen privacygarantie, publiceer ze niet.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="249" />
      <source>Posterior draws</source>
      <translation>Trekkingen uit de a-posterioriverdeling</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="250" />
      <source>Number of joint posterior draws stored in the model file. Draws of the field larger than 1 GiB (draws x mesh nodes x 8 bytes) are kept on disk, in a temporary file without a name that is deleted with the fit, and the tools that read the model read them from the file as they need them: the disk then needs room for them twice while the model file is written.</source>
      <translation>Aantal gezamenlijke trekkingen uit de a-posterioriverdeling dat in het modelbestand wordt opgeslagen. Trekkingen van het veld groter dan 1 GiB (trekkingen x meshknopen x 8 bytes) worden op schijf bewaard, in een tijdelijk bestand zonder naam dat met de fit verdwijnt, en de tools die het model lezen, lezen ze uit het bestand wanneer ze die nodig hebben: de schijf heeft dan, zolang het modelbestand wordt geschreven, twee keer zoveel ruimte voor ze nodig.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="259" />
      <source>Intensity raster pixel size</source>
      <translation>Pixelgrootte van het intensiteitsraster</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="261" />
      <source>Pixel size (&gt; 0, in CRS units) of the intensity raster. Empty: half the largest mesh edge.</source>
      <translation>Pixelgrootte (&gt; 0, in CRS-eenheden) van het intensiteitsraster. Leeg: de helft van de langste zijde van het driehoeksnet.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="264" />
      <source>Needed only when the layer is in degrees.</source>
      <translation>Alleen nodig als de laag in graden is.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="268" />
      <source>Fitted model (CONFIDENTIAL)</source>
      <translation>Geschat model (VERTROUWELIJK)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="268" />
      <source>LGCP model files (*.npz)</source>
      <translation>LGCP-modelbestanden (*.npz)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="270" />
      <source>The posterior draws, mesh and covariate design, for the synthesis and risk tools.</source>
      <translation>De trekkingen uit de a-posterioriverdeling, het driehoeksnet en de opzet van de covariaten, voor de synthese- en risicohulpmiddelen.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="276" />
      <source>GeoTIFF: band 1 posterior mean, band 2 posterior sd of the intensity (points per squared CRS unit); NoData outside the window.</source>
      <translation>GeoTIFF: band 1 het a-posteriorigemiddelde, band 2 de a-posteriori-sd van de intensiteit (punten per vierkante CRS-eenheid); NoData buiten het studiegebied.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="285" />
      <source>Parameter table (mean, sd, 95% interval), settings and a map of the intensity.</source>
      <translation>Parametertabel (gemiddelde, sd, 95%-interval), instellingen en een kaart van de intensiteit.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="289" />
      <source>Conditional predictive ordinates (CONFIDENTIAL)</source>
      <translation>Conditionele predictieve ordinaten (VERTROUWELIJK)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="291" />
      <source>Model check: the input points with cpo, the leave-one-out predictive density of each point given all the others (Walder et al. eqs. 7 and 9, per squared CRS unit), log_cpo, and cpo_ess, the effective number of posterior draws behind it (below about 20 the estimate is unstable). Low values flag points the model does not expect. Holds the confidential locations.</source>
      <translation>Modelcontrole: de invoerpunten met cpo, de leave-one-out-predictieve dichtheid van elk punt gegeven alle andere (Walder et al. vgl. 7 en 9, per vierkante CRS-eenheid), log_cpo, en cpo_ess, het effectieve aantal trekkingen uit de a-posterioriverdeling waarop die berust (onder ongeveer 20 is de schatting instabiel). Lage waarden markeren punten die het model niet verwacht. Bevat de vertrouwelijke locaties.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="298" />
      <source>Mesh nodes</source>
      <translation>Knopen van het driehoeksnet</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="301" />
      <source>Log pseudo-marginal likelihood (sum of log CPO; higher is better)</source>
      <translation>Log-pseudo-marginale aannemelijkheid (som van log CPO; hoger is beter)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="318" />
      <source>{0}: the model file must end in .npz (the other tools read only .npz files), got {1}.</source>
      <translation>{0}: het modelbestand moet op .npz eindigen (de andere hulpmiddelen lezen alleen .npz-bestanden), gekregen: {1}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="338" />
      <source>{0}: the pixel size must be &gt; 0 (leave it empty for half the mesh edge).</source>
      <translation>{0}: de pixelgrootte moet &gt; 0 zijn (laat leeg voor de helft van de rand van het mesh).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="350" />
      <source>Mesh: {0} nodes, largest edge {1:g}.</source>
      <translation>Driehoeksnet: {0} knopen, langste zijde {1:g}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="356" />
      <source>{0} points lie at a location another point already takes (several people at one address, or copies).</source>
      <translation>{0} punten liggen op een locatie die al door een ander punt wordt ingenomen (meerdere mensen op één adres, of kopieën).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="406" />
      <source>{0}: the fit to these {1} points is degenerate (leave-one-out predictive densities of 0 or infinity; field variance {2:.3g}), so no model was written. An LGCP needs more points, covariates that vary among the points, or a prior that keeps the field smaller ({3}, {4}).</source>
      <translation>{0}: de fit aan deze {1} punten is ontaard (leave-one-out-voorspellende dichtheden van 0 of oneindig; veldvariantie {2:.3g}), dus er is geen model geschreven. Een LGCP heeft meer punten nodig, covariaten die tussen de punten variëren, of een prior die het veld kleiner houdt ({3}, {4}).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="425" />
      <source>CPO of the LGCP fit (CONFIDENTIAL)</source>
      <translation>CPO van de LGCP-schatting (VERTROUWELIJK)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="432" />
      <source>{0} (CONFIDENTIAL: not for publication)</source>
      <translation>{0} (VERTROUWELIJK: niet voor publicatie)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="450" />
      <source>{0} of {1} draws have a field with spikes at mesh nodes that the integration points do not see; refit with the degree-3 integration (INTEGRATION).</source>
      <translation>{0} van de {1} trekkingen hebben een veld met pieken op knopen van de mesh die de integratiepunten niet zien; fit opnieuw met de graad-3-integratie (INTEGRATION).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="458" />
      <source>{0}: the edge-midpoint rule was fooled by fields with spikes at single mesh nodes (a clustered pattern), so the model was refitted with the degree-3 rule, which sees the nodes; it overestimates the integral of rough fields by 1-3%, which lengthens the estimated range a little.</source>
      <translation>{0}: de ribbemiddenregel werd misleid door velden met pieken op afzonderlijke meshknopen (een geclusterd patroon), dus is het model opnieuw gefit met de graad-3-regel, die de knopen wel ziet; die overschat de integraal van ruwe velden met 1-3%, waardoor het geschatte bereik iets langer wordt.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="467" />
      <source>The posterior of the field's range and standard deviation is too flat for the fast method's grid: it reached its {0} points before the posterior fell off, so the draws miss part of it and the fit cannot be trusted. Give a {1} nearer the scale of the pattern (empty: 1/5 of the window's larger side), or use the MCMC method.</source>
      <translation>De posterior van het bereik en de standaardafwijking van het veld is te vlak voor het rooster van de snelle methode: het bereikte zijn {0} punten voordat de posterior afnam, dus de trekkingen missen een deel ervan en de fit is niet betrouwbaar. Geef een {1} dichter bij de schaal van het patroon (leeg: 1/5 van de langste zijde van het venster), of gebruik de MCMC-methode.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="476" />
      <source>{0} of the {1} points of the central composite design were left out as failed fits.</source>
      <translation>{0} van de {1} punten van het centraal samengestelde ontwerp zijn als mislukte fits weggelaten.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="482" />
      <source>{0} hyperparameter grid points were left out as failed fits.</source>
      <translation>{0} roosterpunten van de hyperparameters zijn als mislukte fits weggelaten.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/fit_lgcp.py" line="502" />
      <source>Posterior intensity (CONFIDENTIAL)</source>
      <translation>A-posteriori-intensiteit (VERTROUWELIJK)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="59" />
      <source>{0}: '{1}' is not a number. Give a maximum radius and a number of steps ('500,100') or a list of three or more radii ('0,50,100,150'); with decimal commas, separate the numbers with ';' ('0; 12,5; 25').</source>
      <translation>{0}: '{1}' is geen getal. Geef een maximale straal en een aantal stappen ('500,100') of een lijst van drie of meer stralen ('0,50,100,150'); scheid de getallen met ';' als u decimale komma's gebruikt ('0; 12,5; 25').</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="66" />
      <source>{0}: '{1}' is not a finite number.</source>
      <translation>{0}: '{1}' is geen eindig getal.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="69" />
      <source>{0}: '{1}' holds no number; leave it empty for the default radii.</source>
      <translation>{0}: '{1}' bevat geen getal; laat het leeg voor de standaardstralen.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="73" />
      <source>{0}: give a maximum radius and a number of steps ('500,100') or a list of three or more radii ('0,50,100,150'), not a single number.</source>
      <translation>{0}: geef een maximale straal en een aantal stappen ('500,100') of een lijst van drie of meer stralen ('0,50,100,150'), niet één enkel getal.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="82" />
      <source>{0}: the maximum radius must be &gt; 0, got {1:g} (two numbers are read as a maximum and a number of steps).</source>
      <translation>{0}: de maximale straal moet &gt; 0 zijn; opgegeven: {1:g} (twee getallen worden gelezen als een maximum en een aantal stappen).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="89" />
      <source>{0}: the number of steps must be a whole number from 1 to {1}, got {2:g}.</source>
      <translation>{0}: het aantal stappen moet een geheel getal van 1 tot en met {1} zijn; opgegeven: {2:g}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="96" />
      <source>{0}: at most {1} radii, got {2}.</source>
      <translation>{0}: ten hoogste {1} stralen; opgegeven: {2}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="99" />
      <source>{0}: radii must be &gt;= 0, got {1:g}.</source>
      <translation>{0}: stralen moeten &gt;= 0 zijn; opgegeven: {1:g}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="103" />
      <source>{0}: radii must be strictly increasing, but {1:g} follows {2:g}.</source>
      <translation>{0}: stralen moeten strikt toenemen, maar {1:g} volgt op {2:g}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="129" />
      <source>K-function and L-function (utility diagnostic)</source>
      <translation>K-functie en L-functie (bruikbaarheidsdiagnostiek)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="132" />
      <source>Utility measures</source>
      <translation>Bruikbaarheidsmaten</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="138" />
      <source>Ripley's K- and L-function of a point layer, homogeneous or inhomogeneous, with edge correction; compared with a synthetic layer by the MISE.</source>
      <translation>K- en L-functie van Ripley voor een puntenlaag, homogeen of inhomogeen, met randcorrectie; vergeleken met een synthetische laag via de MISE.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="145" />
      <source>&lt;p&gt;Estimates Ripley's K-function of the points in a study window W, at the radii r you ask for: the expected number of further points within distance r of a typical point, divided by the intensity. Under complete spatial randomness K(r) = π r² and the L-function L(r) = √(K(r)/π) equals r; L(r) − r above 0 means clustering at distance r, below 0 regularity.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Homogeneous&lt;/b&gt; (no intensity raster), as spatstat's &lt;i&gt;Kest&lt;/i&gt;: K(r) = |W| / (n (n − 1)) Σ&lt;sub&gt;i≠j&lt;/sub&gt; 1(d&lt;sub&gt;ij&lt;/sub&gt; ≤ r) e&lt;sub&gt;ij&lt;/sub&gt;. &lt;b&gt;Inhomogeneous&lt;/b&gt; (an intensity raster λ), Kim &amp;amp; Lim eq. 14, which is spatstat's &lt;i&gt;Kinhom&lt;/i&gt; without renormalisation: K(r) = 1 / |W| Σ&lt;sub&gt;i≠j&lt;/sub&gt; 1(d&lt;sub&gt;ij&lt;/sub&gt; ≤ r) e&lt;sub&gt;ij&lt;/sub&gt; / (λ(x&lt;sub&gt;i&lt;/sub&gt;) λ(x&lt;sub&gt;j&lt;/sub&gt;)).&lt;/p&gt;&lt;p&gt;&lt;b&gt;Edge corrections.&lt;/b&gt; Points near the boundary of W have neighbours outside W that were not observed. &lt;i&gt;Isotropic&lt;/i&gt; (Ripley): each pair gets the weight e&lt;sub&gt;ij&lt;/sub&gt; = 2π d&lt;sub&gt;ij&lt;/sub&gt; divided by the length of the circle about x&lt;sub&gt;i&lt;/sub&gt; through x&lt;sub&gt;j&lt;/sub&gt; that lies inside W (1 when the circle is inside W, at most 100), exact for polygon windows with holes. &lt;i&gt;Border&lt;/i&gt; (reduced sample): at radius r only points at least r from the boundary are centres. &lt;i&gt;None&lt;/i&gt;: all weights 1, which underestimates K at larger r.&lt;/p&gt;&lt;p&gt;&lt;b&gt;On a street network&lt;/b&gt; (NETWORK, Kim &amp;amp; Lim Appendix E.3): the points are moved to their nearest location on the network, d&lt;sub&gt;ij&lt;/sub&gt; is the shortest-path distance along it and |L| its total length. &lt;i&gt;None&lt;/i&gt; is Okabe &amp;amp; Yamada's K(r) = |L| / (n (n − 1)) Σ&lt;sub&gt;i≠j&lt;/sub&gt; 1(d&lt;sub&gt;ij&lt;/sub&gt; ≤ r); &lt;i&gt;Ang&lt;/i&gt; (Ang, Baddeley &amp;amp; Nair 2012) divides each pair by the number of network points at distance d&lt;sub&gt;ij&lt;/sub&gt; from x&lt;sub&gt;i&lt;/sub&gt;, so that K(r) = r for a Poisson process on any network and L = K. Both agree with spatstat's linearK and linearKinhom.&lt;/p&gt;&lt;p&gt;With a synthetic layer, its K-function is estimated in the same window, at the same radii, with the same correction (and intensity), and the MISE of Kim &amp;amp; Lim (Section 4.1) is reported: the integral over the radii where K of the original is &gt; 0 of (K&lt;sub&gt;syn&lt;/sub&gt;(r) / K(r) − 1)², by the trapezoid rule; 0 for identical K-functions.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Not for publication.&lt;/b&gt; The K-function of the confidential layer is derived from the confidential points (at fine radii it reveals their pairwise distances). It is a utility diagnostic for the data steward; the table and the chart are confidential.&lt;/p&gt;</source>
      <translation>&lt;p&gt;Schat de K-functie van Ripley van de punten in een studiegebied W, bij de stralen r die u opgeeft: het verwachte aantal andere punten binnen afstand r van een typisch punt, gedeeld door de intensiteit. Bij volledige ruimtelijke willekeur is K(r) = π r² en is de L-functie L(r) = √(K(r)/π) gelijk aan r; L(r) − r boven 0 wijst op clustering op afstand r, onder 0 op regelmaat.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Homogeen&lt;/b&gt; (geen intensiteitsraster), zoals &lt;i&gt;Kest&lt;/i&gt; van spatstat: K(r) = |W| / (n (n − 1)) Σ&lt;sub&gt;i≠j&lt;/sub&gt; 1(d&lt;sub&gt;ij&lt;/sub&gt; ≤ r) e&lt;sub&gt;ij&lt;/sub&gt;. &lt;b&gt;Inhomogeen&lt;/b&gt; (een intensiteitsraster λ), Kim &amp;amp; Lim vgl. 14, dat is &lt;i&gt;Kinhom&lt;/i&gt; van spatstat zonder hernormalisatie: K(r) = 1 / |W| Σ&lt;sub&gt;i≠j&lt;/sub&gt; 1(d&lt;sub&gt;ij&lt;/sub&gt; ≤ r) e&lt;sub&gt;ij&lt;/sub&gt; / (λ(x&lt;sub&gt;i&lt;/sub&gt;) λ(x&lt;sub&gt;j&lt;/sub&gt;)).&lt;/p&gt;&lt;p&gt;&lt;b&gt;Randcorrecties.&lt;/b&gt; Punten dicht bij de rand van W hebben buren buiten W die niet zijn waargenomen. &lt;i&gt;Isotroop&lt;/i&gt; (Ripley): elk paar krijgt het gewicht e&lt;sub&gt;ij&lt;/sub&gt; = 2π d&lt;sub&gt;ij&lt;/sub&gt; gedeeld door de lengte van het deel van de cirkel om x&lt;sub&gt;i&lt;/sub&gt; door x&lt;sub&gt;j&lt;/sub&gt; dat binnen W ligt (1 als de cirkel binnen W ligt, ten hoogste 100), exact voor polygonale studiegebieden met gaten. &lt;i&gt;Rand&lt;/i&gt; (gereduceerde steekproef): bij straal r zijn alleen punten op ten minste r van de rand middelpunten. &lt;i&gt;Geen&lt;/i&gt;: alle gewichten 1, wat K bij grotere r onderschat.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Op een stratennetwerk&lt;/b&gt; (NETWORK, Kim &amp;amp; Lim Appendix E.3): de punten worden naar hun dichtstbijzijnde locatie op het netwerk verplaatst, d&lt;sub&gt;ij&lt;/sub&gt; is de afstand langs het kortste pad over het netwerk en |L| de totale lengte ervan. &lt;i&gt;Geen&lt;/i&gt; is de K(r) = |L| / (n (n − 1)) Σ&lt;sub&gt;i≠j&lt;/sub&gt; 1(d&lt;sub&gt;ij&lt;/sub&gt; ≤ r) van Okabe &amp;amp; Yamada; &lt;i&gt;Ang&lt;/i&gt; (Ang, Baddeley &amp;amp; Nair 2012) deelt elk paar door het aantal punten van het netwerk op afstand d&lt;sub&gt;ij&lt;/sub&gt; van x&lt;sub&gt;i&lt;/sub&gt;, zodat K(r) = r voor een Poisson-proces op elk netwerk en L = K. Beide komen overeen met linearK en linearKinhom van spatstat.&lt;/p&gt;&lt;p&gt;Met een synthetische laag wordt de K-functie daarvan geschat in hetzelfde studiegebied, bij dezelfde stralen, met dezelfde correctie (en intensiteit), en wordt de MISE van Kim &amp;amp; Lim (Sectie 4.1) gerapporteerd: de integraal van (K&lt;sub&gt;syn&lt;/sub&gt;(r) / K(r) − 1)² over de stralen waar K van het origineel &gt; 0 is, met de trapeziumregel; 0 bij identieke K-functies.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Niet voor publicatie.&lt;/b&gt; De K-functie van de vertrouwelijke laag is afgeleid van de vertrouwelijke punten (bij fijne stralen verraadt ze hun onderlinge afstanden). Ze is bruikbaarheidsdiagnostiek voor de databeheerder; de tabel en de grafiek zijn vertrouwelijk.&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="175" />
      <source>&lt;p&gt;&lt;b&gt;Guarantee.&lt;/b&gt; None (no ε or δ): this tool adds no noise and publishes nothing; it measures how well a synthetic layer keeps the clustering of the confidential points. A synthetic layer is as private as the tool that made it (see that tool's help).&lt;/p&gt;</source>
      <translation>&lt;p&gt;&lt;b&gt;Garantie.&lt;/b&gt; Geen (geen ε of δ): dit hulpmiddel voegt geen ruis toe en publiceert niets; het meet hoe goed een synthetische laag de clustering van de vertrouwelijke punten behoudt. Een synthetische laag is zo privé als het hulpmiddel dat haar maakte (zie de help daarvan).&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="186" />
      <source>Point layer (original)</source>
      <translation>Puntenlaag (origineel)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="187" />
      <source>The (confidential) points whose K-function is estimated. At least 2, all inside the window.</source>
      <translation>De (vertrouwelijke) punten waarvan de K-functie wordt geschat. Ten minste 2, allemaal binnen het studiegebied.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="191" />
      <source>Polygons of the study region W (holes allowed); every point must lie inside. Its area and boundary enter the estimate. Empty: the bounding box of the input points enlarged on each side by 5% of its larger side. Not used with a NETWORK.</source>
      <translation>Polygonen van het studiegebied W (gaten toegestaan); elk punt moet erbinnen liggen. De oppervlakte en de rand ervan gaan in de schatting mee. Leeg: de omhullende rechthoek van de invoerpunten, aan elke kant vergroot met 5% van de langste zijde. Niet gebruikt bij een NETWORK.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="199" />
      <source>Optional line layer of streets. Given: the points (and the synthetic points) are moved to their nearest location on it and the K-function on the network is estimated with shortest-path distances (Okabe &amp; Yamada; Ang's correction; spatstat's linearK), instead of the planar one; CORRECTION must then be Ang or None, and WINDOW is not used. Same CRS as the points (or both transformed to WORK_CRS).</source>
      <translation>Optionele lijnlaag met straten. Opgegeven: de punten (en de synthetische punten) worden naar hun dichtstbijzijnde locatie erop verplaatst en de K-functie op het netwerk wordt geschat met afstanden langs de kortste paden (Okabe &amp; Yamada; de correctie van Ang; linearK van spatstat), in plaats van de K-functie in het vlak; CORRECTION moet dan Ang of Geen zijn, en WINDOW wordt niet gebruikt. Zelfde CRS als de punten (of beide getransformeerd naar WORK_CRS).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="208" />
      <source>Radii</source>
      <translation>Stralen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="209" />
      <source>Distances r in the layer's CRS units (or the working CRS's). Two numbers 'max,steps' give steps + 1 evenly spaced radii from 0 to max ('500,100': 0, 5, …, 500); three or more numbers are the radii themselves ('0,50,100,150'), &gt;= 0 and increasing. Empty: 101 radii (0 and 100 steps) up to spatstat's default maximum, min(shorter side of the window's bounding box / 4, √(1000 |W| / (π n))); on a network 101 radii up to spatstat's linearK maximum, 0.98 times the network's bounding radius.</source>
      <translation>Afstanden r in de CRS-eenheden van de laag (of die van het werk-CRS). Twee getallen 'max,stappen' geven stappen + 1 gelijkmatig verdeelde stralen van 0 tot max ('500,100': 0, 5, …, 500); drie of meer getallen zijn de stralen zelf ('0,50,100,150'), &gt;= 0 en oplopend. Leeg: 101 stralen (0 en 100 stappen) tot het standaardmaximum van spatstat, min(kortste zijde van de omhullende rechthoek van het studiegebied / 4, √(1000 |W| / (π n))); op een netwerk 101 stralen tot het maximum van linearK van spatstat, 0,98 keer de omhullende straal van het netwerk.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="222" />
      <source>Edge correction</source>
      <translation>Randcorrectie</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="223" />
      <source>Ang (network)</source>
      <translation>Ang (netwerk)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="223" />
      <source>Border (reduced sample)</source>
      <translation>Rand (gereduceerde steekproef)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="223" />
      <source>Isotropic (Ripley)</source>
      <translation>Isotroop (Ripley)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="223" />
      <source>None</source>
      <translation>Geen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="227" />
      <source>In a window: Isotropic, Ripley's weight for pairs whose circle leaves the window (recommended); Border, only points at least r from the boundary are centres; None, no correction (biased downwards). On a NETWORK: Ang (Ang, Baddeley &amp; Nair 2012; recommended), each pair weighted by 1 / the number of network points at that distance from the centre, so that K(r) = r for a Poisson process on any network; None, Okabe &amp; Yamada's estimator, whose Poisson value depends on the network (L is then left empty). Isotropic and Border are refused on a network, Ang without one.</source>
      <translation>In een studiegebied: Isotroop, het gewicht van Ripley voor paren waarvan de cirkel buiten het studiegebied komt (aanbevolen); Rand, alleen punten op ten minste r van de rand zijn middelpunten; Geen, geen correctie (neerwaarts vertekend). Op een NETWORK: Ang (Ang, Baddeley &amp; Nair 2012; aanbevolen), elk paar gewogen met 1 / het aantal punten van het netwerk op die afstand van het middelpunt, zodat K(r) = r voor een Poisson-proces op elk netwerk; Geen, de schatter van Okabe &amp; Yamada, waarvan de Poisson-waarde van het netwerk afhangt (L blijft dan leeg). Isotroop en Rand worden op een netwerk geweigerd, Ang zonder netwerk.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="237" />
      <source>Intensity raster (inhomogeneous)</source>
      <translation>Intensiteitsraster (inhomogeen)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="238" />
      <source>Band 1: the intensity λ in points per squared CRS unit, e.g. a fitted intensity. Sampled at the points (bilinear between pixel centres); it must be &gt; 0 there and not NoData. Given: the inhomogeneous K-function of Kim &amp; Lim eq. 14. Empty: the homogeneous K-function. On a NETWORK: points per CRS unit of length, sampled at the points' locations on the network (Kim &amp; Lim eq. 27, spatstat's linearKinhom).</source>
      <translation>Band 1: de intensiteit λ in punten per vierkante CRS-eenheid, bijv. een geschatte intensiteit. Bemonsterd op de punten (bilineair tussen pixelmiddelpunten); ze moet daar &gt; 0 zijn en mag geen NoData zijn. Opgegeven: de inhomogene K-functie van Kim &amp; Lim vgl. 14. Leeg: de homogene K-functie. Op een NETWORK: punten per lengte-eenheid van het CRS, bemonsterd op de locaties van de punten op het netwerk (Kim &amp; Lim vgl. 27, linearKinhom van spatstat).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="248" />
      <source>Synthetic point layer (comparison)</source>
      <translation>Synthetische puntenlaag (vergelijking)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="250" />
      <source>Optional synthetic points to compare with: adds their K- and L-function to the table and chart and computes the MISE. Same CRS as the input; every point inside the window (on a NETWORK: placed on it like the input points).</source>
      <translation>Optionele synthetische punten om mee te vergelijken: voegt hun K- en L-functie toe aan de tabel en de grafiek en berekent de MISE. Zelfde CRS als de invoer; elk punt binnen het studiegebied (op een NETWORK: daarop geplaatst zoals de invoerpunten).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="258" />
      <source>Needed only when the layers are in degrees; radii and intensity are then in this CRS's units.</source>
      <translation>Alleen nodig als de lagen in graden zijn; stralen en intensiteit zijn dan in de eenheden van dit CRS.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="262" />
      <source>K-function table (CONFIDENTIAL)</source>
      <translation>Tabel met de K-functie (VERTROUWELIJK)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="264" />
      <source>Table without geometry, one row per radius: r, K, L, theo (π r², K of a Poisson process) and, with a synthetic layer, K_syn and L_syn. Empty where the border estimator has no point far enough from the boundary. It reveals pairwise distances of the confidential points, so it is not written unless asked for.</source>
      <translation>Tabel zonder geometrie, één rij per straal: r, K, L, theo (π r², K van een Poisson-proces) en, met een synthetische laag, K_syn en L_syn. Leeg waar de randschatter geen punt heeft dat ver genoeg van de rand ligt. De tabel onthult onderlinge afstanden van de vertrouwelijke punten en wordt daarom alleen geschreven als erom gevraagd wordt.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="274" />
      <source>Chart (CONFIDENTIAL)</source>
      <translation>Grafiek (VERTROUWELIJK)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="279" />
      <source>HTML page with the charts of K(r) and L(r) − r (both layers when given) and the settings.</source>
      <translation>HTML-pagina met de grafieken van K(r) en L(r) − r (van beide lagen, indien opgegeven) en de instellingen.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="281" />
      <source>MISE of the synthetic K-function</source>
      <translation>MISE van de synthetische K-functie</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="282" />
      <source>Number of input points</source>
      <translation>Aantal invoerpunten</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="287" />
      <source>Nothing to compute: set {0} (the table) or {1} (the chart), or give {2} to get the MISE.</source>
      <translation>Niets te berekenen: stel {0} (de tabel) of {1} (de grafiek) in, of geef {2} op om de MISE te krijgen.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="308" />
      <source>{0} is in {1} but {2} is in {3}: the two patterns must be compared in the same CRS. Reproject {0} to the CRS of {2} first.</source>
      <translation>{0} staat in {1}, maar {2} staat in {3}: de twee patronen moeten in hetzelfde CRS worden vergeleken. Herprojecteer eerst {0} naar het CRS van {2}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="336" />
      <source>{0}: {1} of the {2} points of {3} lie outside the window; clip them or enlarge it.</source>
      <translation>{0}: {1} van de {2} punten van {3} liggen buiten het studiegebied; knip ze weg of vergroot het studiegebied.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="340" />
      <source>the bounding box of {0} enlarged by 5%</source>
      <translation>de omhullende rechthoek van {0}, vergroot met 5%</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="342" />
      <source>{0}: {1} of its {2} points lie outside the window ({3}); clip them or give a {4} that contains both layers.</source>
      <translation>{0}: {1} van de {2} punten liggen buiten het studiegebied ({3}); knip ze weg of geef een {4} op dat beide lagen bevat.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="358" />
      <source>{0} (at the points of {1}): {2}</source>
      <translation>{0} (op de punten van {1}): {2}</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="363" />
      <source>{0}: the intensity is zero or negative at {1} of the {2} points of {3} (smallest value {4:g}); the inhomogeneous K-function divides by it. Use an intensity &gt; 0 at every point.</source>
      <translation>{0}: de intensiteit is nul of negatief op {1} van de {2} punten van {3} (kleinste waarde {4:g}); de inhomogene K-functie deelt erdoor. Gebruik een intensiteit &gt; 0 op elk punt.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="410" />
      <source>{0}: radii up to {1:g} exceed half the window's shorter side; there the estimate rests on few pairs and large edge weights.</source>
      <translation>{0}: stralen tot {1:g} zijn groter dan de helft van de kortste zijde van het studiegebied; daar berust de schatting op weinig paren en grote randgewichten.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="442" />
      <source>MISE of the synthetic K-function: {0:.6g}</source>
      <translation>MISE van de synthetische K-functie: {0:.6g}</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="448" />
      <source>{0}: {1} points repeat the location of another point, so K(0) &gt; 0 here (spatstat counts only pairs at a distance &gt; 0). A MISE then includes the first radii, where the relative error can dominate it; start {2} above 0 to leave them out.</source>
      <translation>{0}: {1} punten herhalen de locatie van een ander punt, dus K(0) &gt; 0 hier (spatstat telt alleen paren op een afstand &gt; 0). Een MISE omvat dan ook de eerste stralen, waar de relatieve fout haar kan domineren; laat {2} boven 0 beginnen om ze weg te laten.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="461" />
      <source>bounding box of the points enlarged by 5%</source>
      <translation>omhullende rechthoek van de punten, vergroot met 5%</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="463" />
      <source>the WINDOW polygons</source>
      <translation>de WINDOW-polygonen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/kfunction.py" line="469" />
      <source>K-function (CONFIDENTIAL utility diagnostic)</source>
      <translation>K-functie (VERTROUWELIJKE bruikbaarheidsdiagnostiek)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="99" />
      <source>Risk and utility of synthetic marked points</source>
      <translation>Risico en bruikbaarheid van synthetische gemarkeerde punten</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="108" />
      <source>Type S and Type A disclosure risk of every confidential record, L-function bands and regressions of fully synthetic records with categories and a number.</source>
      <translation>Onthullingsrisico van type S en type A van elk vertrouwelijk record, banden van de L-functie en regressies van volledig synthetische records met categorieën en een getal.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="114" />
      <source>&lt;p&gt;&lt;b&gt;Guarantee.&lt;/b&gt; None (no ε or δ): fully synthetic records are protected empirically, and this tool measures that protection. Type S risk (eq. 8): of the synthetic records within the spatial tolerance of a confidential record, the share with its attributes (an intruder who knows where someone lives learns their attributes). Type A risk (eq. 9): of the synthetic records with its attributes, the share within the spatial tolerance (an intruder who knows someone's attributes learns where they live). Publish the synthetic sets only if these risks are acceptable; never publish this tool's outputs.&lt;/p&gt;</source>
      <translation>&lt;p&gt;&lt;b&gt;Garantie.&lt;/b&gt; Geen (geen ε of δ): volledig synthetische records worden empirisch beschermd, en dit hulpmiddel meet die bescherming. Type S-risico (vgl. 8): van de synthetische records binnen de ruimtelijke tolerantie van een vertrouwelijk record, het aandeel met dezelfde attributen (een aanvaller die weet waar iemand woont, komt diens attributen te weten). Type A-risico (vgl. 9): van de synthetische records met dezelfde attributen, het aandeel binnen de ruimtelijke tolerantie (een aanvaller die iemands attributen kent, komt te weten waar die persoon woont). Publiceer de synthetische datasets alleen als deze risico's aanvaardbaar zijn; publiceer de uitvoer van dit hulpmiddel nooit.&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="126" />
      <source>&lt;p&gt;Quick, Holan, Wikle &amp;amp; Reiter, Sections 3.1-3.2, for the output of spatialprivacy:synthesizemarked (one layer holding all L sets, numbered 1..L in the field 'set').&lt;/p&gt;&lt;p&gt;&lt;b&gt;Risks.&lt;/b&gt; For each confidential record and each set: the Type S and Type A risks, with 'spatially close' meaning at a distance ≤ the spatial tolerance and 'similar attributes' the same combination of categories and, with a numeric field, a value within ± the attribute tolerance (both bounds included; the paper writes 'less than', which differs only for exact ties). A set with no synthetic record close to the record (Type S) or with its attributes (Type A) has a zero denominator and is left out of that record's estimate, the paper's second option; a record with no set left gets no value (NULL), and the report counts them. The output holds per record the median and the 5% and 95% quantiles over the sets used, and their number.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Utility.&lt;/b&gt; The L-function of the confidential points against the mean and pointwise 95% band of the synthetic sets (2.5% and 97.5% quantiles over the sets), overall and per combination, plotted as L(r) − r (eq. 7) with Ripley's isotropic edge correction rather than the paper's biased eq. 6; radii from 0 to spatstat's default for all records. Two regressions, fitted on the confidential records and on each set and combined with the rules for fully synthetic data (Raghunathan, Reiter &amp;amp; Rubin 2003; when their variance T_f is not positive, the adjusted (n_syn / n) ū with a normal reference, Reiter 2002, as the report says; when their degrees of freedom ν_f are below 3 the interval is absurdly wide and flagged unstable (use more SETS), with the adjusted interval beside it), with the overlap J of the 95% intervals (Karr et al. 2006): the numeric field on the combinations' indicators (least squares; a Poisson regression, as the paper's ages, when the numeric field is an integer field with whole numbers ≥ 0 in both layers), and a logistic regression of one category field's level on the combinations of the other category fields and the numeric field. A coefficient that cannot be estimated in a set (no record, or all records of a group with the same outcome) is left out of the combination there, as the report notes.&lt;/p&gt;</source>
      <translation>&lt;p&gt;Quick, Holan, Wikle &amp;amp; Reiter, Secties 3.1-3.2, voor de uitvoer van spatialprivacy:synthesizemarked (één laag met alle L datasets, genummerd 1..L in het veld 'set').&lt;/p&gt;&lt;p&gt;&lt;b&gt;Risico's.&lt;/b&gt; Voor elk vertrouwelijk record en elke dataset: het type S- en het type A-risico, waarbij 'ruimtelijk dichtbij' betekent: op een afstand ≤ de ruimtelijke tolerantie, en 'vergelijkbare attributen': dezelfde combinatie van categorieën en, bij een numeriek veld, een waarde binnen ± de attribuuttolerantie (beide grenzen inbegrepen; het artikel schrijft 'kleiner dan', wat alleen bij exact gelijke waarden verschilt). Een dataset zonder synthetisch record dicht bij het record (type S) of met zijn attributen (type A) heeft een noemer nul en wordt buiten de schatting voor dat record gelaten, de tweede optie van het artikel; een record waarvoor geen dataset overblijft, krijgt geen waarde (NULL), en het rapport telt zulke records. De uitvoer bevat per record de mediaan en het 5%- en 95%-kwantiel over de gebruikte datasets, en hun aantal.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Bruikbaarheid.&lt;/b&gt; De L-functie van de vertrouwelijke punten tegenover het gemiddelde en de puntsgewijze 95%-band van de synthetische datasets (2.5%- en 97.5%-kwantielen over de datasets), in totaal en per combinatie, uitgezet als L(r) − r (vgl. 7) met de isotrope randcorrectie van Ripley in plaats van de vertekende vgl. 6 van het artikel; stralen van 0 tot de standaardwaarde van spatstat voor alle records. Twee regressies, geschat op de vertrouwelijke records en op elke dataset en gecombineerd met de regels voor volledig synthetische gegevens (Raghunathan, Reiter &amp;amp; Rubin 2003; als hun variantie T_f niet positief is, de aangepaste (n_syn / n) ū met een normale referentieverdeling, Reiter 2002, zoals het rapport vermeldt; als hun vrijheidsgraden ν_f onder 3 liggen, is het interval absurd breed en wordt het als instabiel gemarkeerd (gebruik meer SETS), met het aangepaste interval ernaast), met de overlap J van de 95%-intervallen (Karr et al. 2006): het numerieke veld op de indicatoren van de combinaties (kleinste kwadraten; een Poisson-regressie, zoals bij de leeftijden in het artikel, als het numerieke veld een geheeltallig veld is met gehele getallen ≥ 0 in beide lagen), en een logistische regressie van een niveau van één categorieveld op de combinaties van de andere categorievelden en het numerieke veld. Een coëfficiënt die in een dataset niet kan worden geschat (geen record, of alle records van een groep met dezelfde uitkomst), wordt daar buiten de combinatie gelaten, zoals het rapport vermeldt.&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="160" />
      <source>Confidential points</source>
      <translation>Vertrouwelijke punten</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="161" />
      <source>The confidential records: points with the category fields and, if given, the numeric field.</source>
      <translation>De vertrouwelijke records: punten met de categorievelden en, indien opgegeven, het numerieke veld.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="164" />
      <source>Synthetic sets</source>
      <translation>Synthetische datasets</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="165" />
      <source>The synthetic records of all L sets in one layer with the field 'set' (1..L), the category fields and the numeric field under the same names: the output of spatialprivacy:synthesizemarked. Same CRS as the confidential layer; every combination of categories must occur in the confidential data.</source>
      <translation>De synthetische records van alle L datasets in één laag met het veld 'set' (1..L), de categorievelden en het numerieke veld onder dezelfde namen: de uitvoer van spatialprivacy:synthesizemarked. Hetzelfde CRS als de vertrouwelijke laag; elke combinatie van categorieën moet in de vertrouwelijke gegevens voorkomen.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="173" />
      <source>Category fields</source>
      <translation>Categorievelden</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="175" />
      <source>The categorical marks (e.g. sex, race, a flag); their observed combinations are the groups of the risks, the L-functions and the regressions. The same fields as given to synthesizemarked.</source>
      <translation>De categorische kenmerken (bijv. geslacht, ras, een vlag); hun waargenomen combinaties vormen de groepen van de risico's, de L-functies en de regressies. Dezelfde velden als bij synthesizemarked opgegeven.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="182" />
      <source>Numeric field</source>
      <translation>Numeriek veld</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="184" />
      <source>The numeric mark (e.g. age, consumption), if the sets have one. Requires the attribute tolerance.</source>
      <translation>Het numerieke kenmerk (bijv. leeftijd, consumptie), als de datasets er een hebben. Vereist de attribuuttolerantie.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="187" />
      <source>Spatial tolerance (ε_s)</source>
      <translation>Ruimtelijke tolerantie (ε_s)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="188" />
      <source>ε_s &gt; 0, in the layer's units: a synthetic record at most this far from a confidential record is 'spatially close' to it, e.g. the size of a block (the paper used about a quarter of a mile).</source>
      <translation>ε_s &gt; 0, in de eenheden van de laag: een synthetisch record dat ten hoogste zo ver van een vertrouwelijk record ligt, ligt er 'ruimtelijk dichtbij', bijv. de grootte van een bouwblok (het artikel gebruikte ongeveer een kwart mijl).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="195" />
      <source>Attribute tolerance (ε_a)</source>
      <translation>Attribuuttolerantie (ε_a)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="197" />
      <source>ε_a ≥ 0, in the numeric field's units: numeric values at most this far apart are 'similar' (the paper used 5 years of age). Required with a numeric field.</source>
      <translation>ε_a ≥ 0, in de eenheden van het numerieke veld: numerieke waarden die ten hoogste zo ver uit elkaar liggen, zijn 'vergelijkbaar' (het artikel gebruikte 5 jaar leeftijd). Vereist bij een numeriek veld.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="204" />
      <source>Field of the logistic regression</source>
      <translation>Veld van de logistische regressie</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="206" />
      <source>One of the category fields, modelled by the logistic regression on the other category fields (and the numeric field). Empty: the first category field.</source>
      <translation>Een van de categorievelden, gemodelleerd door de logistische regressie op de andere categorievelden (en het numerieke veld). Leeg: het eerste categorieveld.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="214" />
      <source>Level of the logistic regression</source>
      <translation>Niveau van de logistische regressie</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="216" />
      <source>The value of that field whose probability is modelled, as text (1 or true for a boolean). Empty: the second of its two levels in sorted order (e.g. 1 of 0/1); a field with more than two levels needs it, else the logistic regression is skipped.</source>
      <translation>De waarde van dat veld waarvan de kans wordt gemodelleerd, als tekst (1 of true voor een booleaans veld). Leeg: het tweede van zijn twee niveaus in gesorteerde volgorde (bijv. 1 bij 0/1); een veld met meer dan twee niveaus heeft deze waarde nodig, anders wordt de logistische regressie overgeslagen.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="225" />
      <source>The region of the L-functions (its area and edges); every confidential and synthetic point must lie inside it. Empty: the confidential points' bounding box enlarged by 5%, as the LGCP tools draw it. Give the window the sets were synthesised in.</source>
      <translation>Het gebied van de L-functies (de oppervlakte en de randen ervan); elk vertrouwelijk en synthetisch punt moet erbinnen liggen. Leeg: de omhullende rechthoek van de vertrouwelijke punten, vergroot met 5%, zoals de LGCP-hulpmiddelen die bepalen. Geef het studiegebied op waarin de datasets zijn gesynthetiseerd.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="231" />
      <source>Needed only when the layers are in degrees; ε_s is then in this CRS's units.</source>
      <translation>Alleen nodig als de lagen in graden zijn; ε_s is dan in de eenheden van dit CRS.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="234" />
      <source>Risk per record (CONFIDENTIAL)</source>
      <translation>Risico per record (VERTROUWELIJK)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="236" />
      <source>The CONFIDENTIAL locations with s_median, s_q05, s_q95, s_sets (Type S risk: median, 5% and 95% quantiles over the sets used, and their number) and a_median, a_q05, a_q95, a_sets (Type A). It shows where the people at risk live: never publish it.</source>
      <translation>De VERTROUWELIJKE locaties met s_median, s_q05, s_q95, s_sets (type S-risico: mediaan, 5%- en 95%-kwantiel over de gebruikte datasets, en hun aantal) en a_median, a_q05, a_q95, a_sets (type A). De laag toont waar de mensen met een risico wonen: publiceer haar nooit.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="246" />
      <source>The risk scatter (Type S against Type A, the paper's Fig. 2c), the risk summaries, the L-function bands and the regression table. It describes the confidential records: never publish it.</source>
      <translation>De risicospreidingsgrafiek (type S tegen type A, Fig. 2c van het artikel), de samenvattingen van de risico's, de banden van de L-functie en de regressietabel. Het rapport beschrijft de vertrouwelijke records: publiceer het nooit.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="251" />
      <source>Largest median Type S risk</source>
      <translation>Grootste mediane type S-risico</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="252" />
      <source>Largest median Type A risk</source>
      <translation>Grootste mediane type A-risico</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="253" />
      <source>Number of synthetic sets</source>
      <translation>Aantal synthetische datasets</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="257" />
      <source>{0}: required with a numeric field ({1}).</source>
      <translation>{0}: vereist bij een numeriek veld ({1}).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="261" />
      <source>{0}: given without a numeric field ({1}); leave it empty or give the field.</source>
      <translation>{0}: opgegeven zonder numeriek veld ({1}); laat het leeg of geef het veld op.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="270" />
      <source>{0}: the tolerance must be a finite number &gt; 0, got {1}.</source>
      <translation>{0}: de tolerantie moet een eindig getal &gt; 0 zijn, opgegeven: {1}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="280" />
      <source>{0}: give at least one category field.</source>
      <translation>{0}: geef ten minste één categorieveld op.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="288" />
      <source>{0}: '{1}' is also a category field; a field is either a category or the number.</source>
      <translation>{0}: '{1}' is ook een categorieveld; een veld is ofwel een categorie, ofwel het getal.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="299" />
      <source>{0}: '{1}' is not one of the category fields ({2}).</source>
      <translation>{0}: '{1}' is geen van de categorievelden ({2}).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="314" />
      <source>{0}: the synthetic layer's CRS ({1}) differs from the confidential layer's ({2}). Reproject it to the same CRS first.</source>
      <translation>{0}: het CRS van de synthetische laag ({1}) verschilt van dat van de vertrouwelijke laag ({2}). Herprojecteer de laag eerst naar hetzelfde CRS.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="319" />
      <source>none</source>
      <translation>geen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="337" />
      <source>{0}: {1} synthetic records have a combination of categories that no confidential record has (e.g. {2}), or a NULL category. Give the synthetic sets made from this confidential layer with the same category fields.</source>
      <translation>{0}: {1} synthetische records hebben een combinatie van categorieën die geen enkel vertrouwelijk record heeft (bijv. {2}), of een NULL-categorie. Geef de synthetische datasets op die met dezelfde categorievelden uit deze vertrouwelijke laag zijn gemaakt.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="354" />
      <source>{0}: the field '{1}' must number the sets 1..L without gaps; set(s) {2} of 1..{3} have no record.</source>
      <translation>{0}: het veld '{1}' moet de datasets zonder gaten nummeren als 1..L; dataset(s) {2} van 1..{3} hebben geen record.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="360" />
      <source>{0} holds a single set: the combining rules and the bands need at least 2.</source>
      <translation>{0} bevat één enkele dataset: de combinatieregels en de banden hebben er ten minste 2 nodig.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="366" />
      <source>{0}: sets of {1} to {2} records, the confidential layer has {3}; the paper's sets have as many records as the data (the combining rules assume it).</source>
      <translation>{0}: datasets van {1} tot {2} records, de vertrouwelijke laag heeft er {3}; de datasets in het artikel hebben evenveel records als de gegevens (de combinatieregels gaan daarvan uit).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="381" />
      <source>{0}: '{1}' is not a level of '{2}' (its levels: {3}).</source>
      <translation>{0}: '{1}' is geen niveau van '{2}' (de niveaus ervan: {3}).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="389" />
      <source>'{0}' has {1} levels: give {2} to fit the logistic regression; it is skipped.</source>
      <translation>'{0}' heeft {1} niveaus: geef {2} op om de logistische regressie te schatten; ze wordt overgeslagen.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="453" />
      <source>{0} confidential records in {1} combinations; {2} synthetic sets of {3} records in all.</source>
      <translation>{0} vertrouwelijke records in {1} combinaties; {2} synthetische datasets met in totaal {3} records.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="465" />
      <source>{0}: {1} confidential points lie outside the study window ({2}).</source>
      <translation>{0}: {1} vertrouwelijke punten liggen buiten het studiegebied ({2}).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="492" />
      <source>{0}: {1}; the default window is the confidential points' bounding box + 5%: give {2}.</source>
      <translation>{0}: {1}; het standaardstudiegebied is de omhullende rechthoek van de vertrouwelijke punten + 5%: geef {2} op.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="497" />
      <source>Regressions</source>
      <translation>Regressies</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="511" />
      <source>Largest median Type S risk {0:.4g}, Type A {1:.4g}.</source>
      <translation>Grootste mediane type S-risico {0:.4g}, type A {1:.4g}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="515" />
      <source>Type A</source>
      <translation>Type A</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="515" />
      <source>Type S</source>
      <translation>Type S</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="518" />
      <source>{0}: {1} records have no set with a non-zero denominator; their risk is NULL.</source>
      <translation>{0}: {1} records hebben geen dataset met een noemer die niet nul is; hun risico is NULL.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="554" />
      <source>Marked disclosure risk (CONFIDENTIAL)</source>
      <translation>Onthullingsrisico van gemarkeerde punten (VERTROUWELIJK)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="571" />
      <source>Poisson regression of {0} on the combinations (log scale)</source>
      <translation>Poisson-regressie van {0} op de combinaties (logschaal)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="573" />
      <source>Least-squares regression of {0} on the combinations</source>
      <translation>Kleinstekwadratenregressie van {0} op de combinaties</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/marked_risk.py" line="585" />
      <source>Logistic regression: {0}</source>
      <translation>Logistische regressie: {0}</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pmse.py" line="23" />
      <source>Utility of synthetic points (model-based pMSE)</source>
      <translation>Bruikbaarheid van synthetische punten (modelgebaseerde pMSE)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pmse.py" line="26" />
      <source>How well an LGCP fit tells the synthetic points from the confidential ones (0 best, 0.25 worst).</source>
      <translation>Hoe goed een LGCP-schatting de synthetische punten van de vertrouwelijke onderscheidt (0 het best, 0,25 het slechtst).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pmse.py" line="32" />
      <source>&lt;p&gt;Walder, Hanks &amp;amp; Slavković, Section 6 (eqs. 12-15): an LGCP is fitted to the synthetic points on the confidential model's mesh and covariates; for every pooled point the two fitted densities, draw by draw, give the probability that it is confidential; pMSE is the mean squared distance of the probability of a correct classification from 1/2. 0: the synthetic points are indistinguishable; 0.25: fully distinguishable. The synthetic layer must have as many points as the confidential one.&lt;/p&gt;</source>
      <translation>&lt;p&gt;Walder, Hanks &amp;amp; Slavković, Sectie 6 (vgl. 12-15): er wordt een LGCP op de synthetische punten geschat met het driehoeksnet en de covariaten van het vertrouwelijke model; voor elk punt uit de samengevoegde verzameling geven de twee geschatte dichtheden, trekking voor trekking, de kans dat het vertrouwelijk is; de pMSE is de gemiddelde gekwadrateerde afstand van de kans op een juiste classificatie tot 1/2. 0: de synthetische punten zijn niet te onderscheiden; 0,25: volledig te onderscheiden. De synthetische laag moet evenveel punten hebben als de vertrouwelijke.&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pmse.py" line="53" />
      <source>The pMSE, its scale and the settings. It holds no location, but it describes the confidential points (their number, the fit to them): keep it with the steward's files.</source>
      <translation>De pMSE, de schaal ervan en de instellingen. Het rapport bevat geen enkele locatie, maar beschrijft wel de vertrouwelijke punten (hun aantal, de fit eraan): bewaar het bij de bestanden van de beheerder.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pmse.py" line="58" />
      <source>pMSE</source>
      <translation>pMSE</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pmse.py" line="74" />
      <source>{0}: the pMSE compares sets of equal size: {1} synthetic points, {2} confidential.</source>
      <translation>{0}: de pMSE vergelijkt datasets van gelijke grootte: {1} synthetische punten, {2} vertrouwelijke.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pmse.py" line="85" />
      <source>pMSE = {0:.4g} (0 indistinguishable, 0.25 fully distinguishable).</source>
      <translation>pMSE = {0:.4g} (0 niet te onderscheiden, 0,25 volledig te onderscheiden).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pmse.py" line="90" />
      <source>Points per set</source>
      <translation>Punten per dataset</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pmse.py" line="92" />
      <source>Posterior draws used</source>
      <translation>Gebruikte trekkingen uit de a-posterioriverdeling</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pmse.py" line="94" />
      <source>Utility</source>
      <translation>Bruikbaarheid</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="58" />
      <source>Privacy-budget ledger: list releases, set a budget</source>
      <translation>Privacybudgetregister: publicaties opsommen, budget instellen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="61" />
      <source>Privacy budget</source>
      <translation>Privacybudget</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="67" />
      <source>List the releases a privacy-budget ledger records and each data set's total ε and δ per neighbourhood; export them as CSV; set or clear a data set's budget.</source>
      <translation>Toon de publicaties die een privacybudgetregister vastlegt en de totale ε en δ van elke dataset per naburigheid; exporteer ze als CSV; stel het budget van een dataset in of hef het op.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="74" />
      <source>&lt;p&gt;The differentially private tools (pufferfishgrid, dpcounts, dppoints) record every release in a privacy-budget ledger: the algorithm, the mechanism, ε and δ under the neighbourhood they hold for, whether the run was seeded or lost its guarantee, the output files, and the confidential data set it came from, identified by a keyed fingerprint that reveals nothing about the data. This tool lists those releases and adds them up per data set under sequential composition (Dwork &amp;amp; Roth 2014, Theorem 3.16): totals under one neighbourhood are sums; a release counts under another neighbourhood only where a proven rule carries its guarantee there (a guarantee for a larger α holds for a smaller one; one point added or removed gives 2ε for one point moved), and totals under different neighbourhoods are never added to each other. A seeded release, or one whose guarantee was lost (bounds or a window from the data), counts as ε = ∞.&lt;/p&gt;&lt;p&gt;It can also set the budget of a data set (by its fingerprint, as the release tools' log and this tool's table show it): every later release of that data set states whether it stays within it, and with REFUSE_OVER_BUDGET is refused when it would not.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Not a privacy mechanism:&lt;/b&gt; it reads and writes the ledger only. The tables hold no confidential value, but they show what was released from which data set and where it was written: keep them with the steward's files. The ledger's key file (its name with .key) must never be published.&lt;/p&gt;</source>
      <translation>&lt;p&gt;De hulpmiddelen met differentiële privacy (pufferfishgrid, dpcounts, dppoints) leggen elke publicatie vast in een privacybudgetregister: het algoritme, het mechanisme, ε en δ onder de naburigheid waarvoor ze gelden, of de run een seed had of zijn garantie verloor, de uitvoerbestanden, en de vertrouwelijke dataset waar de publicatie van afkomstig is, aangeduid met een vingerafdruk met sleutel die niets over de gegevens onthult. Dit hulpmiddel toont die publicaties en telt ze per dataset op volgens sequentiële compositie (Dwork &amp;amp; Roth 2014, Stelling 3.16): totalen onder één naburigheid zijn sommen; een publicatie telt onder een andere naburigheid alleen mee waar een bewezen regel haar garantie daarheen overdraagt (een garantie voor een grotere α geldt ook voor een kleinere; één punt toegevoegd of verwijderd geeft 2ε voor één verplaatst punt), en totalen onder verschillende naburigheden worden nooit bij elkaar opgeteld. Een publicatie met seed, of een publicatie waarvan de garantie verloren ging (grenzen of een studiegebied uit de gegevens), telt als ε = ∞.&lt;/p&gt;&lt;p&gt;Het kan ook het budget van een dataset instellen (via de vingerafdruk, zoals het log van de publicatiehulpmiddelen en de tabel van dit hulpmiddel die tonen): elke latere publicatie van die dataset vermeldt of ze daarbinnen blijft, en wordt met REFUSE_OVER_BUDGET geweigerd als dat niet zo is.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Geen privacymechanisme:&lt;/b&gt; het leest en schrijft alleen het register. De tabellen bevatten geen vertrouwelijke waarde, maar laten zien wat uit welke dataset is gepubliceerd en waar het is weggeschreven: bewaar ze bij de bestanden van de databeheerder. Het sleutelbestand van het register (zijn naam met .key) mag nooit worden gepubliceerd.&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="101" />
      <source>Privacy-budget ledger</source>
      <translation>Privacybudgetregister</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="108" />
      <source>The ledger file. Empty: &lt;project folder&gt;/&lt;project name&gt;{0} beside the saved QGIS project, the one the release tools use by default.</source>
      <translation>Het registerbestand. Leeg: &lt;map van het project&gt;/&lt;naam van het project&gt;{0} naast het opgeslagen QGIS-project, het bestand dat de publicatiehulpmiddelen standaard gebruiken.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="114" />
      <source>Data set (fingerprint)</source>
      <translation>Dataset (vingerafdruk)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="115" />
      <source>Only this data set: its fingerprint (64 hex digits, as the release tools' log shows it), its first {0} or more digits, or its name as recorded (the layer's name). Needed to set a budget. Empty: every data set.</source>
      <translation>Alleen deze dataset: de vingerafdruk ervan (64 hexadecimale cijfers, zoals het log van de publicatiehulpmiddelen die toont), de eerste {0} of meer cijfers daarvan, of de naam zoals vastgelegd (de naam van de laag). Nodig om een budget in te stellen. Leeg: elke dataset.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="123" />
      <source>Set the budget ε of the data set</source>
      <translation>Budget ε van de dataset instellen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="125" />
      <source>Record this budget for DATASET in the ledger: the largest total ε under each neighbourhood. The release tools use it unless their own BUDGET_EPSILON is given. Empty: the budget stays as it is.</source>
      <translation>Leg dit budget voor DATASET vast in het register: de grootste totale ε onder elke naburigheid. De publicatiehulpmiddelen gebruiken het, tenzij hun eigen BUDGET_EPSILON is opgegeven. Leeg: het budget blijft zoals het is.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="132" />
      <source>Budget δ of the data set</source>
      <translation>Budget δ van de dataset</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="134" />
      <source>The largest total δ, with {0}. Empty: 0.</source>
      <translation>De grootste totale δ, samen met {0}. Leeg: 0.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="137" />
      <source>Clear the budget of the data set</source>
      <translation>Budget van de dataset opheffen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="138" />
      <source>Remove the budget of DATASET (recorded in the ledger as a budget cleared; nothing is erased).</source>
      <translation>Verwijder het budget van DATASET (in het register vastgelegd als een opgeheven budget; er wordt niets gewist).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="141" />
      <source>Note on the budget</source>
      <translation>Opmerking bij het budget</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="142" />
      <source>Free text recorded with the budget, e.g. who decided it and why.</source>
      <translation>Vrije tekst die bij het budget wordt vastgelegd, bijv. wie het heeft vastgesteld en waarom.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="146" />
      <source>Releases</source>
      <translation>Publicaties</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="147" />
      <source>A table (no geometry), one row per release and neighbourhood it states: number, time (UTC), data set, its name, algorithm, mechanism, neighbourhood, its parameter, units and text, epsilon, delta, proven (0 for a nominal guarantee), seeded (1: not private, counted as ε = ∞), outputs, note.</source>
      <translation>Een tabel (zonder geometrie), één rij per publicatie en per naburigheid die ze vermeldt: nummer, tijd (UTC), dataset, de naam ervan, algoritme, mechanisme, naburigheid, de parameter, eenheden en tekst daarvan, epsilon, delta, bewezen (0 bij een nominale garantie), met seed (1: niet privacyveilig, geteld als ε = ∞), uitvoer, opmerking.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="154" />
      <source>Totals per data set and neighbourhood</source>
      <translation>Totalen per dataset en naburigheid</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="155" />
      <source>A table (no geometry), one row per data set and neighbourhood: the total epsilon and delta under sequential composition, how many releases were added up, not covered (no guarantee there), seeded and nominal, the budget and whether it is exceeded (1).</source>
      <translation>Een tabel (zonder geometrie), één rij per dataset en naburigheid: de totale epsilon en delta volgens sequentiële compositie, hoeveel publicaties zijn opgeteld, niet gedekt (daar geen garantie), met seed en nominaal, het budget en of het is overschreden (1).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="163" />
      <source>CSV files (*.csv)</source>
      <translation>CSV-bestanden (*.csv)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="163" />
      <source>Releases as CSV</source>
      <translation>Publicaties als CSV</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="165" />
      <source>The releases table as a CSV file (UTF-8, a header row), e.g. for a spreadsheet or an audit.</source>
      <translation>De tabel met publicaties als CSV-bestand (UTF-8, met een kopregel), bijv. voor een spreadsheet of een audit.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="167" />
      <source>Number of releases listed</source>
      <translation>Aantal getoonde publicaties</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="168" />
      <source>Number of data sets listed</source>
      <translation>Aantal getoonde datasets</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="174" />
      <source>{0} / {1}: give a budget or clear it, not both.</source>
      <translation>{0} / {1}: geef een budget op of hef het op, niet allebei.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="178" />
      <source>{0}: give the data set whose budget to {1}.</source>
      <translation>{0}: geef de dataset op waarvan het budget moet worden {1}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="179" />
      <source>clear</source>
      <translation>opgeheven</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="179" />
      <source>set</source>
      <translation>ingesteld</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="195" />
      <source>{0}: give the ledger file (the QGIS project is not saved, so there is no default).</source>
      <translation>{0}: geef het registerbestand op (het QGIS-project is niet opgeslagen, dus er is geen standaardbestand).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="206" />
      <source>{0}: {1} is the ledger or its key file; choose another file.</source>
      <translation>{0}: {1} is het register of het sleutelbestand ervan; kies een ander bestand.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="212" />
      <source>{0}: {1} does not exist (no release has been recorded there yet).</source>
      <translation>{0}: {1} bestaat niet (er is daar nog geen publicatie vastgelegd).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="230" />
      <source>Budget of data set {0} set to ε = {1:g}, δ = {2:g} per neighbourhood.</source>
      <translation>Budget van dataset {0} ingesteld op ε = {1:g}, δ = {2:g} per naburigheid.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="235" />
      <source>Budget of data set {0} cleared.</source>
      <translation>Budget van dataset {0} opgeheven.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="283" />
      <source>{0}: no data set in the ledger {1} has the fingerprint or name '{2}' (give the whole fingerprint, or at least its first {3} digits).</source>
      <translation>{0}: geen dataset in het register {1} heeft de vingerafdruk of naam '{2}' (geef de hele vingerafdruk, of ten minste de eerste {3} cijfers ervan).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="289" />
      <source>{0}: '{1}' matches several data sets ({2}); give more of the fingerprint.</source>
      <translation>{0}: '{1}' past bij meerdere datasets ({2}); geef een groter deel van de vingerafdruk.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="299" />
      <source>; budget ε = {0:g}, δ = {1:g}</source>
      <translation>; budget ε = {0:g}, δ = {1:g}</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="302" />
      <source>Data set {0} ({1}), under {2}: ε = {3}, δ = {4} over {5} release(s){6}{7}.</source>
      <translation>Dataset {0} ({1}), onder {2}: ε = {3}, δ = {4} over {5} publicatie(s){6}{7}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="304" />
      <source>no name</source>
      <translation>geen naam</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/privacy_ledger.py" line="310" />
      <source> - OVER BUDGET</source>
      <translation> - BUDGET OVERSCHREDEN</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="90" />
      <source>Pufferfish-private grid map</source>
      <translation>Rasterkaart met Pufferfish-privacy</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="93" />
      <source>Grid maps</source>
      <translation>Rasterkaarten</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="99" />
      <source>Publish a thematic grid map of a point value (mean or total per cell) with Pufferfish privacy.</source>
      <translation>Publiceer een thematische rasterkaart van een puntwaarde (gemiddelde of totaal per cel) met Pufferfish-privacy.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="103" />
      <source>&lt;p&gt;Bins points into square cells and publishes, per cell, the mean (or total) of a non-negative value with Laplace noise calibrated to the number of contributors n, following ter Steege (2021), &lt;i&gt;Pufferfish privacy when publishing on thematic maps&lt;/i&gt;.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Guarantee.&lt;/b&gt; Absolute error (Theorem 3.1): for every person in a cell, an attacker cannot tell from the map whether their value lies in [x−c, x+c) or in the neighbouring [x+c, x+3c) by more than a factor e&lt;sup&gt;ε&lt;/sup&gt;, for any prior under which people's values are independent. Relative error (Corollary 3.2): the same for the relative intervals [ky, y/k) and [y/k, y/k³), i.e. for values up to a factor k; the map then shows each cell's &lt;i&gt;geometric&lt;/i&gt; mean, because the proof protects the mean of log t (the thesis's eq. 12 writes the arithmetic mean, for which one dominant value could shift the map by up to n times the stated ε). Each person is in one cell, so the whole map has the same ε. The bounded mechanism (Section 4) clamps the output to [L, U]. The thesis analyses it as (ε, δ)-Pufferfish with δ ≤ Δ, the largest δ&lt;sub&gt;max&lt;/sub&gt; of a published cell (Theorem 4.4, Corollary 4.5), reported as output DELTA. When L and U are fixed without looking at the data, clamping is post-processing, so the map in fact keeps the pure ε guarantee and Δ is a conservative figure. When the bounds are derived from the data, nothing about the smallest and largest value is private. The noise is drawn in double precision, which adds a δ that these figures do not count: about 1e-16 at ε = 1, 5e-15 at ε = 10, 8e-11 at ε = 20 and 2e-3 at ε = 30.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Not protected:&lt;/b&gt; locations and counts. The map shows which cells are occupied and publishes n exactly; use this tool when the values are sensitive, not presence.&lt;/p&gt;</source>
      <translation>&lt;p&gt;Deelt punten in vierkante cellen in en publiceert per cel het gemiddelde (of totaal) van een niet-negatieve waarde met Laplace-ruis die is gekalibreerd op het aantal bijdragers n, naar ter Steege (2021), &lt;i&gt;Pufferfish privacy when publishing on thematic maps&lt;/i&gt;.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Garantie.&lt;/b&gt; Absolute fout (Stelling 3.1): voor elke persoon in een cel kan een aanvaller uit de kaart niet met meer dan een factor e&lt;sup&gt;ε&lt;/sup&gt; onderscheiden of diens waarde in [x−c, x+c) ligt of in het aangrenzende [x+c, x+3c), voor elke a-prioriverdeling waaronder de waarden van personen onafhankelijk zijn. Relatieve fout (Gevolg 3.2): hetzelfde voor de relatieve intervallen [ky, y/k) en [y/k, y/k³), d.w.z. voor waarden tot op een factor k; de kaart toont dan het &lt;i&gt;meetkundig&lt;/i&gt; gemiddelde van elke cel, omdat het bewijs het gemiddelde van log t beschermt (vgl. 12 van de scriptie schrijft het rekenkundig gemiddelde, waarbij één dominante waarde de kaart met tot n keer de opgegeven ε zou kunnen verschuiven). Elke persoon zit in één cel, dus de hele kaart heeft dezelfde ε. Het begrensde mechanisme (Sectie 4) kapt de uitvoer af tot [L, U]. De scriptie analyseert het als (ε, δ)-Pufferfish met δ ≤ Δ, de grootste δ&lt;sub&gt;max&lt;/sub&gt; van een gepubliceerde cel (Stelling 4.4, Gevolg 4.5), gerapporteerd als uitvoer DELTA. Als L en U zijn vastgelegd zonder naar de gegevens te kijken, is het afkappen een nabewerking, dus behoudt de kaart in feite de zuivere ε-garantie en is Δ een conservatieve waarde. Als de grenzen uit de gegevens zijn afgeleid, is niets over de kleinste en de grootste waarde privé. De ruis wordt in dubbele precisie getrokken, wat een δ toevoegt die deze cijfers niet meetellen: ongeveer 1e-16 bij ε = 1, 5e-15 bij ε = 10, 8e-11 bij ε = 20 en 2e-3 bij ε = 30.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Niet beschermd:&lt;/b&gt; locaties en aantallen. De kaart laat zien welke cellen bezet zijn en publiceert n exact; gebruik dit hulpmiddel als de waarden gevoelig zijn, niet de aanwezigheid.&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="133" />
      <source>Points (one per person or enterprise) with the confidential value. Selected features only, if so chosen.</source>
      <translation>Punten (één per persoon of bedrijf) met de vertrouwelijke waarde. Desgewenst alleen de geselecteerde objecten.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="139" />
      <source>Value field</source>
      <translation>Waardeveld</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="140" />
      <source>Numeric field with each contribution t_i; must be &gt;= 0 (&gt; 0 for relative error) and not NULL.</source>
      <translation>Numeriek veld met elke bijdrage t_i; moet &gt;= 0 zijn (&gt; 0 bij relatieve fout) en mag niet NULL zijn.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="143" />
      <source>Cell size r</source>
      <translation>Celgrootte r</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="144" />
      <source>Side of a square cell, in the units of the layer's (or working) CRS, e.g. metres.</source>
      <translation>Zijde van een vierkante cel, in de eenheden van het CRS van de laag (of het werk-CRS), bijv. meters.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="148" />
      <source>Privacy parameter ε (epsilon)</source>
      <translation>Privacyparameter ε (epsilon)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="150" />
      <source>ε, at least {0:g}. Smaller is more private and noisier: the noise scale is proportional to 1/ε.</source>
      <translation>ε, minstens {0:g}. Een kleinere waarde beschermt beter, maar geeft meer ruis: de schaal van de ruis is evenredig met 1/ε.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="157" />
      <source>Error model</source>
      <translation>Foutmodel</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="158" />
      <source>Absolute error (interval c)</source>
      <translation>Absolute fout (interval c)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="158" />
      <source>Relative error (factor k)</source>
      <translation>Relatieve fout (factor k)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="162" />
      <source>Absolute: protects which interval of width 2c holds a value (additive noise). Relative: protects values up to a factor k (multiplicative noise) and publishes each cell's geometric mean, for skewed values such as turnover.</source>
      <translation>Absoluut: beschermt in welk interval met breedte 2c een waarde ligt (additieve ruis). Relatief: beschermt waarden tot op een factor k (multiplicatieve ruis) en publiceert per cel het meetkundig gemiddelde, voor scheef verdeelde waarden zoals omzet.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="170" />
      <source>Interval half-width c (absolute error)</source>
      <translation>Halve intervalbreedte c (absolute fout)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="172" />
      <source>c &gt; 0, in the value's units: an attacker cannot tell t_i in [x−c, x+c) from [x+c, x+3c). Larger c protects more and adds more noise (Laplace scale 4c/(nε)).</source>
      <translation>c &gt; 0, in de eenheden van de waarde: een aanvaller kan t_i in [x−c, x+c) niet onderscheiden van [x+c, x+3c). Een grotere c beschermt meer en voegt meer ruis toe (Laplace-schaal 4c/(nε)).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="179" />
      <source>Relative factor k (relative error)</source>
      <translation>Relatieve factor k (relatieve fout)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="181" />
      <source>0 &lt; k &lt; 1: values within a factor k are protected, e.g. 0.9 for 10%. Smaller k protects more (Laplace scale −4 ln(k)/(nε) on the log scale).</source>
      <translation>0 &lt; k &lt; 1: waarden binnen een factor k worden beschermd, bijv. 0,9 voor 10%. Een kleinere k beschermt meer (Laplace-schaal −4 ln(k)/(nε) op logschaal).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="187" />
      <source>Mean</source>
      <translation>Gemiddelde</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="187" />
      <source>Published statistic</source>
      <translation>Gepubliceerde statistiek</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="187" />
      <source>Total</source>
      <translation>Totaal</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="188" />
      <source>Mean (the thesis's statistic: arithmetic for absolute error, geometric for relative error) or, for absolute error only, total = n × noisy mean, which has the same guarantee because n is public. A noisy count is not offered: these secrets do not protect counts.</source>
      <translation>Gemiddelde (de statistiek uit de scriptie: rekenkundig bij absolute fout, meetkundig bij relatieve fout) of, alleen bij absolute fout, totaal = n × gemiddelde met ruis; dat heeft dezelfde garantie, omdat n openbaar is. Een aantal met ruis wordt niet aangeboden: deze geheimen beschermen geen aantallen.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="195" />
      <source>Bounded mechanism (clamp to [L, U])</source>
      <translation>Begrensd mechanisme (afkappen tot [L, U])</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="196" />
      <source>Clamp published means to [L, U] (mechanism B), so no value falls below L (0 with the default margin) or above U. Needs contribution bounds. The thesis's bound Δ on δ is output DELTA. Without it the noise is unbounded: a cell's published mean can be negative for a positive quantity.</source>
      <translation>Kap gepubliceerde gemiddelden af tot [L, U] (mechanisme B), zodat geen enkele waarde onder L (0 bij de standaardmarge) of boven U ligt. Vereist grenzen voor bijdragen. De bovengrens Δ van δ uit de scriptie is uitvoer DELTA. Zonder afkappen is de ruis onbegrensd: het gepubliceerde gemiddelde van een cel kan negatief zijn voor een positieve grootheid.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="204" />
      <source>Lower bound L_t of a contribution</source>
      <translation>Ondergrens L_t van een bijdrage</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="206" />
      <source>Public lower bound on every t_i (bounded mechanism), known without looking at the data, e.g. 0 (then give MARGIN &gt; 0: its default, L_t, would be 0).</source>
      <translation>Openbare ondergrens voor elke t_i (begrensd mechanisme), bekend zonder naar de gegevens te kijken, bijv. 0 (geef dan MARGIN &gt; 0: de standaardwaarde, L_t, zou 0 zijn).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="213" />
      <source>Upper bound U_t of a contribution</source>
      <translation>Bovengrens U_t van een bijdrage</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="215" />
      <source>Public upper bound on every t_i (bounded mechanism). Values outside [L_t, U_t] are refused.</source>
      <translation>Openbare bovengrens voor elke t_i (begrensd mechanisme). Waarden buiten [L_t, U_t] worden geweigerd.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="219" />
      <source>Derive bounds from the data (not private)</source>
      <translation>Grenzen afleiden uit de gegevens (niet privacyveilig)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="221" />
      <source>Use L_t = min t_i and U_t = max t_i, as the thesis does. NOT private: the clamp limits reveal the smallest and largest contribution. The report says so.</source>
      <translation>Gebruik L_t = min t_i en U_t = max t_i, zoals in de scriptie. NIET privacyveilig: de afkapgrenzen verraden de kleinste en de grootste bijdrage. Het rapport vermeldt dit.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="228" />
      <source>Margin γ (absolute) or λ (relative)</source>
      <translation>Marge γ (absoluut) of λ (relatief)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="230" />
      <source>Absolute: γ &gt; 0, L = L_t − γ, U = U_t + γ; empty gives γ = L_t, so L = 0. Relative: λ &gt; 1, L = L_t/λ, U = λU_t; empty gives λ = 1.25. Larger margins give smaller δ but clamp less.</source>
      <translation>Absoluut: γ &gt; 0, L = L_t − γ, U = U_t + γ; leeg geeft γ = L_t, dus L = 0. Relatief: λ &gt; 1, L = L_t/λ, U = λU_t; leeg geeft λ = 1,25. Grotere marges geven een kleinere δ, maar kappen minder af.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="237" />
      <source>Minimum contributors per published cell</source>
      <translation>Minimumaantal bijdragers per gepubliceerde cel</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="239" />
      <source>Publish only cells with n &gt;= this number; others are left out like empty cells. Costs no privacy under this definition (n is public) and lowers Δ; it does not protect presence.</source>
      <translation>Publiceer alleen cellen met n &gt;= dit aantal; de overige worden weggelaten, net als lege cellen. Kost onder deze definitie geen privacy (n is openbaar) en verlaagt Δ; het beschermt de aanwezigheid niet.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="245" />
      <source>Grid origin</source>
      <translation>Oorsprong van het raster</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="246" />
      <source>A corner shared by four cells. Empty: (0, 0), so cell edges fall on multiples of r (the national statistical grid convention).</source>
      <translation>Een hoekpunt dat vier cellen gemeen hebben. Leeg: (0, 0), zodat de celranden op veelvouden van r vallen (de conventie van het nationale statistische raster).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="253" />
      <source>Needed only when the layer is in degrees: the grid is built in this CRS; the output is written back in the layer's CRS.</source>
      <translation>Alleen nodig als de laag in graden is: het raster wordt in dit CRS opgebouwd; de uitvoer wordt teruggeschreven in het CRS van de laag.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="261" />
      <source>Pufferfish grid</source>
      <translation>Pufferfish-raster</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="262" />
      <source>Publishable grid: cell_id, n, value (the published statistic), noise_scale (scale of the noise: value units for absolute error, log scale for relative) and delta_max (0 unless bounded). The noise is Laplace noise on a grid of 1/64 of the sensitivity (4c/n for absolute error, −4 ln k/n on the log scale for relative error): the statistic rounded to the grid, plus whole steps of two-sided geometric noise, so no low-order bits of a float carry the true value (Mironov 2012); noise_scale is 65/64 of the thesis's scale (4c/(nε) or −4 ln k/(nε)) to pay for the rounding. A CSV file has no geometry, so it also gets each cell's centre x, y and bounds x_min, y_min, x_max, y_max in the layer's CRS, and a .csvt file beside it with the column types.</source>
      <translation>Publiceerbaar raster: cell_id, n, value (de gepubliceerde statistiek), noise_scale (schaal van de ruis: in eenheden van de waarde bij absolute fout, logschaal bij relatieve) en delta_max (0 tenzij begrensd). De ruis is Laplace-ruis op een rooster van 1/64 van de gevoeligheid (4c/n bij absolute fout, −4 ln k/n op de logschaal bij relatieve fout): de statistiek afgerond op het rooster, plus hele stappen tweezijdige geometrische ruis, zodat geen laagste bits van een float de ware waarde dragen (Mironov 2012); noise_scale is 65/64 van de schaal van het proefschrift (4c/(nε) of −4 ln k/(nε)) om de afronding te betalen. Een CSV-bestand heeft geen geometrie, dus het krijgt ook het middelpunt x, y en de grenzen x_min, y_min, x_max, y_max van elke cel in het CRS van de laag, en een .csvt-bestand ernaast met de kolomtypen.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="275" />
      <source>Published value raster</source>
      <translation>Raster met gepubliceerde waarden</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="277" />
      <source>Optional GeoTIFF of the published value in the working CRS; cells not published are NoData.</source>
      <translation>Optionele GeoTIFF van de gepubliceerde waarde in het werk-CRS; niet-gepubliceerde cellen zijn NoData.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="282" />
      <source>CONFIDENTIAL comparison (true values and noise; do not publish)</source>
      <translation>VERTROUWELIJKE vergelijking (ware waarden en ruis; niet publiceren)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="288" />
      <source>For the analyst only, off by default: true_value, noise (the noise added, rounding included) and error (published − true) per cell. Publishing it undoes the protection. As CSV, with the cell location columns and the .csvt file of the grid output.</source>
      <translation>Alleen voor de analist, standaard uit: true_value, noise (de toegevoegde ruis, afronding inbegrepen) en error (gepubliceerd − waar) per cel. Publiceren ervan maakt de bescherming ongedaan. Als CSV met de locatiekolommen van de cellen en het .csvt-bestand, zoals de rasteruitvoer.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="299" />
      <source>HTML report of the settings and the privacy guarantee (ε, δ, what is protected). Publishable.</source>
      <translation>HTML-rapport van de instellingen en de privacygarantie (ε, δ, wat er beschermd is). Publiceerbaar.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="301" />
      <source>Grid bound Δ on δ</source>
      <translation>Bovengrens Δ van δ voor het raster</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="302" />
      <source>Privacy parameter ε</source>
      <translation>Privacyparameter ε</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="303" />
      <source>Number of published cells</source>
      <translation>Aantal gepubliceerde cellen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="338" />
      <source>{0}: ignored, because {1} is off.</source>
      <translation>{0}: genegeerd, omdat {1} uit staat.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="342" />
      <source>{0}: ignored, because {1} takes the bounds from the data.</source>
      <translation>{0}: genegeerd, omdat {1} de grenzen uit de gegevens haalt.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="363" />
      <source>CELL_SIZE: the cell size must be &gt; 0, got {0}.</source>
      <translation>CELL_SIZE: de celgrootte moet &gt; 0 zijn; opgegeven: {0}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="388" />
      <source>bounds from the data</source>
      <translation>grenzen uit de gegevens</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="427" />
      <source>{0}: no cell has at least {1} contributors, so nothing would be published.</source>
      <translation>{0}: geen enkele cel heeft ten minste {1} bijdragers, dus er zou niets worden gepubliceerd.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="449" />
      <source>{0}: the map is NOT private. The clamp limits come from the smallest and largest value, which can be read back from it, so no ε holds for whoever has them; fix the bounds from public knowledge before publishing.</source>
      <translation>{0}: de kaart is NIET privé. De afkapgrenzen komen van de kleinste en grootste waarde, die uit de kaart terug te lezen zijn, dus voor wie die waarden heeft geldt geen enkele ε; leg de grenzen vast uit openbare kennis voordat u publiceert.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="457" />
      <source>Δ = {0:.3g} ≥ 1: the thesis's δ bound says nothing here.</source>
      <translation>Δ = {0:.3g} ≥ 1: de bovengrens van δ uit de scriptie zegt hier niets.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="503" />
      <source>Pufferfish grid ({0} {1})</source>
      <translation>Pufferfish-raster ({0} {1})</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/pufferfish_grid.py" line="508" />
      <source>CONFIDENTIAL true values and noise ({0})</source>
      <translation>VERTROUWELIJK: ware waarden en ruis ({0})</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="57" />
      <source>Risk-utility sweep of LGCP synthesis (radial, ANS, PRS)</source>
      <translation>Risico-bruikbaarheidsverkenning van LGCP-synthese (radiaal, ANS, PRS)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="60" />
      <source>Makes many synthetic sets, scores each by maximum disclosure risk and pMSE, and recommends one.</source>
      <translation>Maakt veel synthetische datasets, beoordeelt elk ervan op maximaal onthullingsrisico en pMSE, en beveelt er één aan.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="66" />
      <source>&lt;p&gt;Walder, Hanks &amp;amp; Slavković's study (Section 8, Figures 5-6): for each radius (radial perturbation), each ANS noise variance and each PRS replicate, one synthetic set is made and scored by its maximum disclosure risk (eq. 16) and its pMSE (eq. 15). The recommended set has the lowest pMSE among those whose maximum risk is at most the threshold, counting a setting (a radius, a noise variance, or PRS) only if every one of its releases is. The table and report list every set; the chart plots risk against pMSE.&lt;/p&gt;&lt;p&gt;A set's risk is the risk of that one release. A noisy release (ANS, PRS) can by chance thin the riskiest cluster and mislead the intruder, scoring below the risk with nothing released (the baseline); another release of the same setting may score higher. With several releases per setting (REPLICATES) the report summarises each setting by its mean and worst risk: judge a setting by those, not by its luckiest release.&lt;/p&gt;&lt;p&gt;The sets are independent and run in parallel: in local worker processes (one per core), or on a Dask cluster when a scheduler address is set in Processing &amp;gt; Options &amp;gt; Providers &amp;gt; Spatial Privacy. Each set's random seed is drawn before any set runs, so the results are identical whichever runs them. The confidential points and model travel to the workers: use only a cluster inside the data steward's trusted environment. The address is never written to the table or the report (the log names it only when the cluster cannot be reached or loses the work).&lt;/p&gt;</source>
      <translation>&lt;p&gt;De studie van Walder, Hanks &amp;amp; Slavković (Sectie 8, Figuren 5-6): voor elke straal (radiale verstoring), elke ANS-ruisvariantie en elke PRS-herhaling wordt één synthetische dataset gemaakt en beoordeeld op zijn maximale onthullingsrisico (vgl. 16) en zijn pMSE (vgl. 15). De aanbevolen dataset heeft de laagste pMSE van de datasets waarvan het maximale risico ten hoogste de drempel is, waarbij een instelling (een straal, een ruisvariantie of PRS) alleen meetelt als elk van haar publicaties daaraan voldoet. De tabel en het rapport vermelden elke dataset; de grafiek zet het risico uit tegen de pMSE.&lt;/p&gt;&lt;p&gt;Het risico van een dataset is het risico van die ene publicatie. Een publicatie met ruis (ANS, PRS) kan door toeval het riskantste cluster uitdunnen en de aanvaller misleiden, en dan lager scoren dan het risico zonder publicatie (de basislijn); een andere publicatie met dezelfde instelling kan hoger scoren. Met meerdere publicaties per instelling (REPLICATES) vat het rapport elke instelling samen met haar gemiddelde en slechtste risico: beoordeel een instelling daarop, niet op haar gelukkigste publicatie.&lt;/p&gt;&lt;p&gt;De datasets zijn onafhankelijk en worden parallel uitgevoerd: in lokale werkprocessen (één per kern), of op een Dask-cluster als er een scheduleradres is ingesteld in Processing &amp;gt; Opties &amp;gt; Providers &amp;gt; Spatial Privacy. De seed van elke dataset wordt getrokken voordat er ook maar één dataset wordt uitgevoerd, zodat de resultaten identiek zijn, ongeacht waar ze worden uitgevoerd. De vertrouwelijke punten en het model gaan naar de werkprocessen: gebruik alleen een cluster binnen de vertrouwde omgeving van de databeheerder. Het adres wordt nooit naar de tabel of het rapport geschreven (het log noemt het alleen als het cluster niet bereikbaar is of het werk verliest).&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="93" />
      <source>Radial radii</source>
      <translation>Radiale stralen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="94" />
      <source>Perturbation radii in CRS units, e.g. '50, 100, 200'. Empty: no radial sets.</source>
      <translation>Verstoringsstralen in eenheden van het CRS, bijv. '50, 100, 200'. Leeg: geen radiale sets.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="99" />
      <source>ANS noise variances</source>
      <translation>ANS-ruisvarianties</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="100" />
      <source>Marginal variances of the ANS noise field (&gt;= 0). Default '0.25, 0.5, 1, 2'; clear it (an empty string) for no ANS sets.</source>
      <translation>Marginale varianties van het ANS-ruisveld (&gt;= 0). Standaard '0.25, 0.5, 1, 2'; maak het leeg (een lege tekst) voor geen ANS-sets.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="108" />
      <source>PRS replicates</source>
      <translation>PRS-herhalingen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="109" />
      <source>Number of PRS sets (each a fresh random field). Default 5; 0 for none.</source>
      <translation>Aantal PRS-datasets (elk met een nieuw toevalsveld). Standaard 5; 0 voor geen.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="113" />
      <source>Releases per radius and noise variance</source>
      <translation>Publicaties per straal en ruisvariantie</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="115" />
      <source>Independent synthetic sets made for each radius and each ANS noise variance (&gt;= 1), to show how much the risk and pMSE of one setting vary between releases.</source>
      <translation>Onafhankelijke synthetische datasets die voor elke straal en elke ANS-ruisvariantie worden gemaakt (&gt;= 1), om te laten zien hoeveel het risico en de pMSE van één instelling tussen publicaties verschillen.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="123" />
      <source>Maximum acceptable risk</source>
      <translation>Maximaal aanvaardbaar risico</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="125" />
      <source>Threshold on the maximum disclosure risk for the recommendation, in (0, 1].</source>
      <translation>Drempel voor het maximale onthullingsrisico bij de aanbeveling, in (0, 1].</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="130" />
      <source>Sets and scores (CONFIDENTIAL)</source>
      <translation>Datasets en scores (VERTROUWELIJK)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="132" />
      <source>CONFIDENTIAL: one row per synthetic set: label, method, value (radius or noise variance), replicate, max_risk, pmse, recommended. The scores are computed from the confidential points; keep the table internal, like the report. Not made unless asked for.</source>
      <translation>VERTROUWELIJK: één rij per synthetische dataset: label, method, value (straal of ruisvariantie), replicate, max_risk, pmse, recommended. De scores zijn uit de vertrouwelijke punten berekend; houd de tabel intern, net als het rapport. Wordt alleen gemaakt als erom wordt gevraagd.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="142" />
      <source>The table, the risk-utility chart and the recommendation (derived from the confidential data).</source>
      <translation>De tabel, de risico-bruikbaarheidsgrafiek en de aanbeveling (afgeleid van de vertrouwelijke gegevens).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="146" />
      <source>Recommended synthetic points</source>
      <translation>Aanbevolen synthetische punten</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="148" />
      <source>The recommended synthetic set (syn_id only, random order); an empty layer if no set meets the threshold.</source>
      <translation>De aanbevolen synthetische dataset (alleen syn_id, willekeurige volgorde); een lege laag als geen dataset aan de drempel voldoet.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="155" />
      <source>pMSE of the recommended set (NaN if none)</source>
      <translation>pMSE van de aanbevolen dataset (NaN als er geen is)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="159" />
      <source>Maximum risk of the recommended set (NaN if none)</source>
      <translation>Maximaal risico van de aanbevolen dataset (NaN als er geen is)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="164" />
      <source>Maximum risk with nothing released (what the other points alone reveal)</source>
      <translation>Maximaal risico zonder publicatie (wat de andere punten alleen al onthullen)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="173" />
      <source>{0}: {1} is not allowed (radii must be &gt; 0, noise variances &gt;= 0; separate values with commas, or with semicolons if you write decimals with a comma).</source>
      <translation>{0}: {1} is niet toegestaan (stralen moeten &gt; 0 zijn, ruisvarianties &gt;= 0; scheid waarden met komma's, of met puntkomma's als u decimalen met een komma schrijft).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="200" />
      <source>{0}: make at least one release per setting, got {1}.</source>
      <translation>{0}: maak ten minste één publicatie per instelling, opgegeven: {1}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="204" />
      <source>{0}, {1}, {2}: give at least one radius, noise variance or PRS replicate.</source>
      <translation>{0}, {1}, {2}: geef ten minste één straal, ruisvariantie of PRS-herhaling op.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="212" />
      <source>{0}: the threshold must lie in (0, 1], got {1}.</source>
      <translation>{0}: de drempel moet in (0, 1] liggen; opgegeven: {1}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="237" />
      <source>The sweep could not be completed, and no output was written: {0}</source>
      <translation>De verkenning kon niet worden voltooid en er is geen uitvoer geschreven: {0}</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="260" />
      <source>No setting has every release at or below {0:g}: nothing recommended.</source>
      <translation>Geen instelling heeft elke publicatie op of onder {0:g}: niets aanbevolen.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="264" />
      <source>{0} = {1:g} is below the maximum risk with nothing released ({2:.4g}, what the other points alone reveal), which no synthetic set can be expected to beat; choose a threshold above it.</source>
      <translation>{0} = {1:g} ligt onder het maximale risico zonder publicatie ({2:.4g}, wat de andere punten alleen al onthullen), en geen synthetische dataset kan naar verwachting daaronder komen; kies een drempel daarboven.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="283" />
      <source>Nothing recommended (no set meets the threshold)</source>
      <translation>Niets aanbevolen (geen dataset voldoet aan de drempel)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="286" />
      <source>{0} is written empty: no set meets the threshold.</source>
      <translation>{0} is leeg geschreven: geen dataset voldoet aan de drempel.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="292" />
      <source>Recommended: {0} (pMSE {1:.4g}, max risk {2:.4g}).</source>
      <translation>Aanbevolen: {0} (pMSE {1:.4g}, max. risico {2:.4g}).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="304" />
      <source>recommended</source>
      <translation>aanbevolen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="309" />
      <source>No setting has every release at or below the threshold {0:g}.</source>
      <translation>Geen instelling heeft elke publicatie op of onder de drempel {0:g}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="311" />
      <source>{0}: lowest pMSE ({1:.4g}) among the sets of settings whose every release has maximum risk at most {2:g} (its risk: {3:.4g}).</source>
      <translation>{0}: laagste pMSE ({1:.4g}) van de datasets van instellingen waarvan elke publicatie een maximaal risico van ten hoogste {2:g} heeft (het risico ervan: {3:.4g}).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="327" />
      <source>Recommendation</source>
      <translation>Aanbeveling</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="328" />
      <source>Risk-utility chart</source>
      <translation>Risico-bruikbaarheidsgrafiek</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="329" />
      <source>Settings over their releases</source>
      <translation>Instellingen over hun publicaties</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="330" />
      <source>Sets</source>
      <translation>Datasets</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="332" />
      <source>Settings</source>
      <translation>Instellingen</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="335" />
      <source>Risk threshold</source>
      <translation>Risicodrempel</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="338" />
      <source>Maximum risk with nothing released (baseline)</source>
      <translation>Maximaal risico zonder publicatie (basislijn)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/risk_utility_sweep.py" line="343" />
      <source>Sets run in</source>
      <translation>Datasets uitgevoerd in</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="39" />
      <source>Synthetic points from an LGCP (radial, ANS, PRS)</source>
      <translation>Synthetische punten uit een LGCP (radiaal, ANS, PRS)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="42" />
      <source>Walder et al.'s model-based synthetic locations, or radial perturbation as a baseline.</source>
      <translation>Modelgebaseerde synthetische locaties van Walder et al., of radiale verstoring als referentie.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="46" />
      <source>&lt;p&gt;Makes a synthetic point pattern from a log-Gaussian Cox process fitted to the confidential points (Walder, Hanks &amp;amp; Slavković, Section 5): radial perturbation (each point moved uniformly within a disc, kept inside the window), additive noise synthesis (ANS: posterior-mean intensity times exp(noise field) with the fitted spatial scale) or posterior resampling synthesis (PRS: a new random field with the fitted range and variance). ANS and PRS draw exactly COUNT points from the synthetic intensity inside the window.&lt;/p&gt;</source>
      <translation>&lt;p&gt;Maakt een synthetisch puntpatroon uit een log-Gaussisch Cox-proces dat op de vertrouwelijke punten is geschat (Walder, Hanks &amp;amp; Slavković, Sectie 5): radiale verstoring (elk punt wordt uniform binnen een schijf verplaatst en blijft binnen het studiegebied), synthese met additieve ruis (ANS: het a-posteriorigemiddelde van de intensiteit maal exp(ruisveld) met de geschatte ruimtelijke schaal) of synthese door hertrekking uit de a-posterioriverdeling (PRS: een nieuw toevalsveld met het geschatte bereik en de geschatte variantie). ANS en PRS trekken precies COUNT punten uit de synthetische intensiteit binnen het studiegebied.&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="55" />
      <source>&lt;p&gt;The output has only a synthetic identifier, in random order (so the order of a radial set does not link it to the input).&lt;/p&gt;</source>
      <translation>&lt;p&gt;De uitvoer bevat alleen een synthetische identificatiecode, in willekeurige volgorde (zodat de volgorde van een radiale dataset deze niet aan de invoer koppelt).&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="70" />
      <source>ANS and PRS: exactly this many points, at most a million. Empty: as many as the confidential points (the paper's choice).</source>
      <translation>ANS en PRS: precies zoveel punten, ten hoogste een miljoen. Leeg: evenveel als de vertrouwelijke punten (de keuze van het artikel).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="78" />
      <source>Sampler (ANS, PRS)</source>
      <translation>Sampler (ANS, PRS)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="79" />
      <source>Candidates (the paper's scheme)</source>
      <translation>Kandidaten (het schema uit het artikel)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="79" />
      <source>Exact (piecewise log-linear intensity)</source>
      <translation>Exact (stuksgewijs log-lineaire intensiteit)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="83" />
      <source>Exact: i.i.d. points from the synthetic intensity, log-linear on each mesh triangle. Candidates: N of 100N uniform candidates, weighted by the intensity, without replacement (approximate).</source>
      <translation>Exact: i.i.d.-punten uit de synthetische intensiteit, log-lineair op elke driehoek van het driehoeksnet. Kandidaten: N van 100N uniforme kandidaten, gewogen naar de intensiteit, zonder teruglegging (benadering).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="92" />
      <source>The synthetic points, with one field syn_id, in the layer's CRS. Assess their risk before publishing.</source>
      <translation>De synthetische punten, met één veld syn_id, in het CRS van de laag. Beoordeel het risico ervan vóór publicatie.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="98" />
      <source>Method, settings and fitted quantities (derived from the confidential data: keep it internal).</source>
      <translation>Methode, instellingen en geschatte grootheden (afgeleid van de vertrouwelijke gegevens: houd het rapport intern).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="101" />
      <source>ANS noise level σ² on the paper's scale</source>
      <translation>ANS-ruisniveau σ² op de schaal van het artikel</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="121" />
      <source>{0}: radial perturbation moves every point; leave it empty.</source>
      <translation>{0}: radiale verstoring verplaatst elk punt; laat dit leeg.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="128" />
      <source>Drawing {0} synthetic points ({1}).</source>
      <translation>{0} synthetische punten worden getrokken ({1}).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="143" />
      <source>Sampler</source>
      <translation>Sampler</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="146" />
      <source>Noise level σ² on the paper's scale (eq. 10)</source>
      <translation>Ruisniveau σ² op de schaal van het artikel (vgl. 10)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="149" />
      <source>Seed</source>
      <translation>Seed</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_lgcp.py" line="150" />
      <source>{0} (reproducible: NOT for release)</source>
      <translation>{0} (reproduceerbaar: NIET voor publicatie)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="93" />
      <source>Synthetic marked points (locations, categories, a number)</source>
      <translation>Synthetische gemarkeerde punten (locaties, categorieën, een getal)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="102" />
      <source>Quick, Holan, Wikle &amp; Reiter's fully synthetic records: locations with their categories and a number.</source>
      <translation>Volledig synthetische records van Quick, Holan, Wikle &amp; Reiter: locaties met hun categorieën en een getal.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="108" />
      <source>&lt;p&gt;&lt;b&gt;Guarantee.&lt;/b&gt; None in the sense of differential privacy (no ε or δ). What the synthetic data publish exactly: the number of records N (every set has N) and the set of category combinations that occur in the data (a combination of a single record reveals that such a record exists). Everything else is drawn from a model fitted to the confidential data, and can still let an intruder infer locations or attributes: run spatialprivacy:markedrisk, which measures the paper's two inferential risks (Type S: attributes given a location; Type A: a location given the attributes), before publishing.&lt;/p&gt;</source>
      <translation>&lt;p&gt;&lt;b&gt;Garantie.&lt;/b&gt; Geen in de zin van differentiële privacy (geen ε of δ). Wat de synthetische gegevens exact publiceren: het aantal records N (elke dataset heeft N records) en de verzameling combinaties van categorieën die in de gegevens voorkomen (een combinatie van één enkel record onthult dat zo'n record bestaat). Al het andere wordt getrokken uit een model dat op de vertrouwelijke gegevens is geschat, en kan een aanvaller nog steeds locaties of attributen laten afleiden: voer vóór publicatie spatialprivacy:markedrisk uit, dat de twee inferentiële risico's uit het artikel meet (type S: attributen gegeven een locatie; type A: een locatie gegeven de attributen).&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="120" />
      <source>&lt;p&gt;Makes L fully synthetic data sets of N records, each a location with the category fields and, if given, a numeric field, from a Bayesian marked point process (Quick, Holan, Wikle &amp;amp; Reiter, Sections 2-3).&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;Categories&lt;/b&gt; (eq. 1): the combinations of the category fields that occur in the data; per set, probabilities θ ~ Dirichlet(n + 1/K) (the paper's α = 1/K) and counts ~ Multinomial(N, θ).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Locations&lt;/b&gt; (eq. 2): one log-Gaussian Cox process per combination, with the range and variance of the spatial field shared: they are estimated by an LGCP fitted to all points (fast Laplace posterior), and each combination's surface is then fitted at them; the surfaces are independent (the paper's Ψ diagonal with a common variance). The field is an SPDE field on a mesh instead of the paper's predictive-process knots: the same model family, a better approximation. Combinations with fewer than 10 records are too small for a surface of their own: their locations come from the surface of all points (the paper's borrowing of strength), with a warning naming them. Synthetic locations are drawn from the combination's drawn intensity in the window, exactly, or from a layer of CANDIDATES (e.g. addresses) with probability proportional to it.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Numeric mark&lt;/b&gt; (eqs. 4-5), per combination: normal, Y = β + w(s) + ε, with a spatial field w of the locations' range (fixed, as the paper fixes it); or a Poisson truncated to a public range (the paper's age model), log rate β + w(s); or log-normal, for positive skewed numbers such as a turnover or an income: the normal model fitted to log(value), each synthetic value exp of its draw, so that every synthetic value is positive and exp(β) is a geometric mean (the normal model puts part of a skewed positive variable below zero). The field is constrained to average zero over the window, so that β is the combination's window-average level (without the constraint a field of window-sized range trades its level off against β). The field's standard deviation and σ have flat priors on their logarithms; each set draws them from the Gaussian (Laplace) approximation of their posterior, then β and the field from their posterior given them (the paper's Section 3: every parameter a posterior draw). A standard deviation whose posterior is not peaked (e.g. no spatial variation: a field sd of zero) is held at its estimate, with a warning. Combinations with fewer than 10 records get no field (normal: a common noise variance over all combinations, drawn from its exact posterior).&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;Set l uses posterior draw l of every parameter.&lt;/p&gt;</source>
      <translation>&lt;p&gt;Maakt L volledig synthetische datasets van N records, elk een locatie met de categorievelden en, indien opgegeven, een numeriek veld, uit een Bayesiaans gemarkeerd puntproces (Quick, Holan, Wikle &amp;amp; Reiter, Secties 2-3).&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;Categorieën&lt;/b&gt; (vgl. 1): de combinaties van de categorievelden die in de gegevens voorkomen; per dataset kansen θ ~ Dirichlet(n + 1/K) (de α = 1/K van het artikel) en aantallen ~ Multinomial(N, θ).&lt;/li&gt;&lt;li&gt;&lt;b&gt;Locaties&lt;/b&gt; (vgl. 2): één log-Gaussisch Cox-proces per combinatie, waarbij het bereik en de variantie van het ruimtelijke veld gedeeld worden: die worden geschat met een LGCP dat op alle punten is geschat (snelle Laplace-a-posterioriverdeling), en het oppervlak van elke combinatie wordt vervolgens bij die waarden geschat; de oppervlakken zijn onafhankelijk (de diagonale Ψ van het artikel met een gemeenschappelijke variantie). Het veld is een SPDE-veld op een driehoeksnet in plaats van de knopen van het predictieve proces uit het artikel: dezelfde modelfamilie, een betere benadering. Combinaties met minder dan 10 records zijn te klein voor een eigen oppervlak: hun locaties komen uit het oppervlak van alle punten (de 'borrowing of strength' uit het artikel), met een waarschuwing die ze noemt. Synthetische locaties worden exact getrokken uit de getrokken intensiteit van de combinatie in het studiegebied, of uit een laag CANDIDATES (bijv. adressen) met een kans die daaraan evenredig is.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Numeriek kenmerk&lt;/b&gt; (vgl. 4-5), per combinatie: normaal, Y = β + w(s) + ε, met een ruimtelijk veld w met het bereik van de locaties (vast, zoals het artikel het vastlegt); of een Poisson-verdeling, afgekapt tot een openbaar bereik (het leeftijdsmodel van het artikel), met logaritme van het gemiddelde β + w(s); of lognormaal, voor positieve, scheve getallen zoals een omzet of een inkomen: het normale model geschat op log(value), elke synthetische waarde de exp van zijn trekking, zodat elke synthetische waarde positief is en exp(β) een meetkundig gemiddelde is (het normale model plaatst een deel van een scheve positieve variabele onder nul). Het veld wordt beperkt tot een gemiddelde van nul over het studiegebied, zodat β het over het studiegebied gemiddelde niveau van de combinatie is (zonder die beperking ruilt een veld met een bereik ter grootte van het studiegebied zijn niveau uit tegen β). De standaardafwijking van het veld en σ hebben vlakke a-prioriverdelingen op hun logaritme; elke dataset trekt ze uit de Gaussische (Laplace-)benadering van hun a-posterioriverdeling, en daarna β en het veld uit hun a-posterioriverdeling gegeven die waarden (Sectie 3 van het artikel: elke parameter een trekking uit de a-posterioriverdeling). Een standaardafwijking waarvan de a-posterioriverdeling geen duidelijke piek heeft (bijv. geen ruimtelijke variatie: een sd van het veld van nul), wordt op haar schatting vastgehouden, met een waarschuwing. Combinaties met minder dan 10 records krijgen geen veld (normaal: een gemeenschappelijke ruisvariantie over alle combinaties, getrokken uit haar exacte a-posterioriverdeling).&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;Dataset l gebruikt trekking l uit de a-posterioriverdeling van elke parameter.&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="159" />
      <source>The confidential records: one point each, with their category fields and, optionally, a number.</source>
      <translation>De vertrouwelijke records: één punt per record, met de categorievelden en, optioneel, een getal.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="165" />
      <source>One or more fields of categories (sex, race, a 0/1 flag...). Their combinations that occur in the data are the paper's K combinations; each field needs 2 to 50 values and no NULL. The set of combinations is published exactly.</source>
      <translation>Een of meer velden met categorieën (geslacht, ras, een 0/1-vlag...). Hun combinaties die in de gegevens voorkomen, zijn de K combinaties van het artikel; elk veld heeft 2 tot 50 waarden nodig en geen NULL. De verzameling combinaties wordt exact gepubliceerd.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="175" />
      <source>Optional: a number per record (an income, an age) synthesised per combination. No NULL.</source>
      <translation>Optioneel: een getal per record (een inkomen, een leeftijd) dat per combinatie wordt gesynthetiseerd. Geen NULL.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="180" />
      <source>Model of the numeric field</source>
      <translation>Model van het numerieke veld</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="182" />
      <source>Normal with a spatial field (eq. 4)</source>
      <translation>Normaal met een ruimtelijk veld (vgl. 4)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="183" />
      <source>Truncated Poisson with a spatial field (whole numbers)</source>
      <translation>Afgekapte Poisson met een ruimtelijk veld (gehele getallen)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="184" />
      <source>Log-normal with a spatial field (positive numbers)</source>
      <translation>Lognormaal met een ruimtelijk veld (positieve getallen)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="189" />
      <source>Normal: any number (its synthetic values can be negative even if the data are not: the log says how many). Truncated Poisson: whole numbers within NUMERIC_RANGE, e.g. an age (the paper's Section 4 model). Log-normal: positive numbers (every value &gt; 0), e.g. a turnover or an income: the normal model of their logarithm, synthetic values always positive. The same guarantee for all three: none beyond the published N and combinations.</source>
      <translation>Normaal: elk getal (de synthetische waarden kunnen negatief zijn, ook als de gegevens dat niet zijn: het log vermeldt hoeveel). Afgekapte Poisson: gehele getallen binnen NUMERIC_RANGE, bijv. een leeftijd (het model uit Sectie 4 van het artikel). Lognormaal: positieve getallen (elke waarde &gt; 0), bijv. een omzet of een inkomen: het normale model van hun logaritme, synthetische waarden altijd positief. Voor alle drie geldt dezelfde garantie: geen, afgezien van de gepubliceerde N en combinaties.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="199" />
      <source>Public range of the numeric field</source>
      <translation>Openbaar bereik van het numerieke veld</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="201" />
      <source>Truncated Poisson only, and required for it: 'lower, upper', two whole numbers that every possible value lies between, known publicly (e.g. 0, 120 for an age). It is never taken from the data: their smallest and largest values are confidential.</source>
      <translation>Alleen voor afgekapte Poisson, en daarvoor vereist: 'lower, upper', twee gehele getallen waartussen elke mogelijke waarde ligt, openbaar bekend (bijv. 0, 120 voor een leeftijd). Het wordt nooit uit de gegevens gehaald: hun kleinste en grootste waarden zijn vertrouwelijk.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="209" />
      <source>Polygons of the study region; every record must lie inside, and synthetic locations are drawn inside it. Empty: the points' bounding box enlarged by 5% (then derived from the data).</source>
      <translation>Polygonen van het studiegebied; elk record moet erbinnen liggen, en synthetische locaties worden erbinnen getrokken. Leeg: de omhullende rechthoek van de punten, vergroot met 5% (dan afgeleid van de gegevens).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="216" />
      <source>Adds the covariate 'distance to the nearest feature of this layer' to every intensity surface.</source>
      <translation>Voegt de covariaat 'afstand tot het dichtstbijzijnde object van deze laag' toe aan elk intensiteitsoppervlak.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="220" />
      <source>Rasters (band 1) used as covariates of every intensity surface; they must cover the window.</source>
      <translation>Rasters (band 1) die als covariaten van elk intensiteitsoppervlak worden gebruikt; ze moeten het studiegebied bedekken.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="225" />
      <source>Known log-intensity offset of every surface, e.g. log population density.</source>
      <translation>Bekende offset van de log-intensiteit van elk oppervlak, bijv. de logaritme van de bevolkingsdichtheid.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="230" />
      <source>Mesh resolution (CRS units). Empty: 1/40 of the window's larger side.</source>
      <translation>Resolutie van het driehoeksnet (CRS-eenheden). Leeg: 1/40 van de langste zijde van het studiegebied.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="234" />
      <source>Candidate locations</source>
      <translation>Kandidaatlocaties</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="235" />
      <source>Optional points (e.g. all addresses) that synthetic locations are drawn from, with probability proportional to the drawn intensity there (Section 3); those outside the window are left out. Empty: locations are drawn exactly from the intensity over the window.</source>
      <translation>Optionele punten (bijv. alle adressen) waaruit de synthetische locaties worden getrokken, met een kans die evenredig is met de getrokken intensiteit op die plek (Sectie 3); punten buiten het studiegebied worden weggelaten. Leeg: de locaties worden exact uit de intensiteit over het studiegebied getrokken.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="242" />
      <source>Draw candidates with replacement</source>
      <translation>Kandidaten trekken met teruglegging</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="243" />
      <source>With replacement (the paper's recommendation): a candidate can be drawn more than once. Without: no candidate is used twice within a set, and the pool must hold at least N candidates.</source>
      <translation>Met teruglegging (de aanbeveling van het artikel): een kandidaat kan meer dan eens worden getrokken. Zonder: geen enkele kandidaat wordt binnen een dataset twee keer gebruikt, en de verzameling moet ten minste N kandidaten bevatten.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="250" />
      <source>Number of synthetic sets (L)</source>
      <translation>Aantal synthetische datasets (L)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="252" />
      <source>How many synthetic data sets of N records to make (the utility and risk summaries combine them). With fewer than about 12 sets the combined intervals of markedrisk are often unstable (flagged).</source>
      <translation>Hoeveel synthetische datasets van N records er worden gemaakt (de samenvattingen van bruikbaarheid en risico combineren ze). Met minder dan ongeveer 12 datasets zijn de gecombineerde intervallen van markedrisk vaak instabiel (dat wordt gemarkeerd).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="257" />
      <source>Needed only when the layer is in degrees; distances are then in this CRS's units.</source>
      <translation>Alleen nodig als de laag in graden is; afstanden zijn dan in de eenheden van dit CRS.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="260" />
      <source>Synthetic records (all sets)</source>
      <translation>Synthetische records (alle datasets)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="261" />
      <source>All L sets in one layer, with the field 'set' (1..L), the category fields (same names and types) and the numeric field. Assess it with spatialprivacy:markedrisk before publishing.</source>
      <translation>Alle L datasets in één laag, met het veld 'set' (1..L), de categorievelden (dezelfde namen en typen) en het numerieke veld. Beoordeel de laag met spatialprivacy:markedrisk voordat u haar publiceert.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="268" />
      <source>One GeoPackage per set (folder)</source>
      <translation>Eén GeoPackage per dataset (map)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="270" />
      <source>Optional: also write each set as set_1.gpkg ... set_L.gpkg in this folder, with the same fields.</source>
      <translation>Optioneel: schrijf ook elke dataset weg als set_1.gpkg ... set_L.gpkg in deze map, met dezelfde velden.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="277" />
      <source>Settings, combinations and fitted quantities (derived from the confidential data: keep it internal).</source>
      <translation>Instellingen, combinaties en geschatte grootheden (afgeleid van de vertrouwelijke gegevens: houd het rapport intern).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="279" />
      <source>Number of synthetic records (all sets)</source>
      <translation>Aantal synthetische records (alle datasets)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="290" />
      <source>{0}: the truncated Poisson model needs the public range of the values, e.g. '0, 120' for an age (never the data's own minimum and maximum, which are confidential).</source>
      <translation>{0}: het afgekapte Poisson-model heeft het openbare bereik van de waarden nodig, bijv. '0, 120' voor een leeftijd (nooit het eigen minimum en maximum van de gegevens, want die zijn vertrouwelijk).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="298" />
      <source>{0}: give two whole numbers, lower and upper, e.g. '0, 120'.</source>
      <translation>{0}: geef twee gehele getallen op, een onder- en een bovengrens, bijv. '0, 120'.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="322" />
      <source>{0}: the layer changed while it was read; try again.</source>
      <translation>{0}: de laag is gewijzigd terwijl ze werd ingelezen; probeer het opnieuw.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="346" />
      <source>{0}: choose at least one category field.</source>
      <translation>{0}: kies ten minste één categorieveld.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="357" />
      <source>{0}: a field named 'set' would clash with the output's set number; rename it.</source>
      <translation>{0}: een veld met de naam 'set' zou botsen met het datasetnummer van de uitvoer; geef het een andere naam.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="365" />
      <source>{0} ignored: it is used only by the truncated Poisson model of a numeric field.</source>
      <translation>{0} genegeerd: het wordt alleen gebruikt door het afgekapte Poisson-model van een numeriek veld.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="407" />
      <source>{0}: read in another CRS than {1}.</source>
      <translation>{0}: ingelezen in een ander CRS dan {1}.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="412" />
      <source>{0}: without replacement every set needs N = {1} distinct candidates, but the layer has {2}: give more candidates or draw with replacement ({3}).</source>
      <translation>{0}: zonder teruglegging heeft elke dataset N = {1} verschillende kandidaten nodig, maar de laag heeft er {2}: geef meer kandidaten op of trek met teruglegging ({3}).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="421" />
      <source>Fitting the LGCP of all points ({0} mesh nodes).</source>
      <translation>LGCP van alle punten schatten ({0} knopen van het driehoeksnet).</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="453" />
      <source>{0}: {1} candidates lie outside the study window and are left out.</source>
      <translation>{0}: {1} kandidaten liggen buiten het studiegebied en worden weggelaten.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="467" />
      <source>No {0}: the window is the points' bounding box enlarged by 5%, derived from the confidential data; give a public study region for a release.</source>
      <translation>Geen {0}: het studiegebied is de omhullende rechthoek van de punten, vergroot met 5%, en is dus afgeleid van de vertrouwelijke gegevens; geef voor een publicatie een openbaar studiegebied op.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="473" />
      <source>{0} is not recorded in a privacy-budget ledger: this synthesis has no ε or δ to add up. A ledger's totals for these points do not cover it.</source>
      <translation>{0} wordt niet vastgelegd in een privacybudgetregister: deze synthese heeft geen ε of δ om op te tellen. De totalen van een register voor deze punten dekken haar niet.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="478" />
      <source>Synthetic marked points ({0} sets)</source>
      <translation>Synthetische gemarkeerde punten ({0} datasets)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="517" />
      <source>{0}: {1} have fewer than {2} records each, too few for an intensity surface of their own: their synthetic locations follow the surface of all points (the paper's borrowing of strength), and their numeric mark has no spatial field. Their existence is published by the synthetic data.</source>
      <translation>{0}: {1} hebben elk minder dan {2} records, te weinig voor een eigen intensiteitsoppervlak: hun synthetische locaties volgen het oppervlak van alle punten (de 'borrowing of strength' uit het artikel), en hun numerieke kenmerk heeft geen ruimtelijk veld. Dat ze bestaan, wordt door de synthetische gegevens gepubliceerd.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="523" />
      <source>{0} ({1} records)</source>
      <translation>{0} ({1} records)</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="529" />
      <source>{0}: the intensity fit of {1} failed at the shared hyperparameters; their locations follow the surface of all points.</source>
      <translation>{0}: de intensiteitsschatting van {1} is mislukt bij de gedeelde hyperparameters; hun locaties volgen het oppervlak van alle punten.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="541" />
      <source>{0}: for {1} the posterior of the numeric mark's standard deviations is not peaked (e.g. no spatial variation, a field sd of zero): those not peaked are held at their estimates instead of drawn per set, so the synthetic values understate their uncertainty.</source>
      <translation>{0}: voor {1} heeft de a-posterioriverdeling van de standaardafwijkingen van het numerieke kenmerk geen duidelijke piek (bijv. geen ruimtelijke variatie, een sd van het veld van nul): standaardafwijkingen zonder piek worden op hun schatting vastgehouden in plaats van per dataset getrokken, dus de synthetische waarden onderschatten hun onzekerheid.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="550" />
      <source>{0}: {1} occur in a single record; the synthetic data reveal that such a record exists.</source>
      <translation>{0}: {1} komen in één enkel record voor; de synthetische gegevens onthullen dat zo'n record bestaat.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="561" />
      <source>{0}: the normal model made negative synthetic values in combinations whose values are all ≥ 0 ({1}). For a positive, skewed number choose the log-normal model ({2}), whose synthetic values are all positive.</source>
      <translation>{0}: het normale model heeft negatieve synthetische waarden gemaakt in combinaties waarvan alle waarden ≥ 0 zijn ({1}). Kies voor een positief, scheef verdeeld getal het lognormale model ({2}), waarvan de synthetische waarden allemaal positief zijn.</translation>
    </message>
    <message>
      <location filename="../processing/algorithms/synthesize_marked.py" line="568" />
      <source>{0}: {1:.1%} of its synthetic values</source>
      <translation>{0}: {1:.1%} van de synthetische waarden</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="29" />
      <source>read-only file system</source>
      <translation>alleen-lezen bestandssysteem</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="32" />
      <source>no permission</source>
      <translation>geen toestemming</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="42" />
      <source>{0}: {1} is a folder; give a file name.</source>
      <translation>{0}: {1} is een map; geef een bestandsnaam.</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="51" />
      <source>{0}: the folder {1} cannot be written ({2}).</source>
      <translation>{0}: in de map {1} kan niet worden geschreven ({2}).</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="55" />
      <source>{0}: cannot create the folder of {1} inside {2}.</source>
      <translation>{0}: kan de map van {1} niet aanmaken in {2}.</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="71" />
      <source>{0}: cannot create the folder {1} ({2}).</source>
      <translation>{0}: kan de map {1} niet aanmaken ({2}).</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="75" />
      <source>{0}: {1} cannot be written ({2}).</source>
      <translation>{0}: {1} kan niet worden geschreven ({2}).</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="95" />
      <source>{0}: the file name is too long for the file system ({1} bytes with what the format adds; at most {2}): {3}. Give a shorter name.</source>
      <translation>{0}: de bestandsnaam is te lang voor het bestandssysteem ({1} bytes met wat het formaat eraan toevoegt; ten hoogste {2}): {3}. Geef een kortere naam.</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="124" />
      <source>{0}: {1} could not be written ({2}).</source>
      <translation>{0}: {1} kon niet worden geschreven ({2}).</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="132" />
      <source>The outputs could not be written: {0}</source>
      <translation>De uitvoer kon niet worden geschreven: {0}</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="237" />
      <source>{0}: this output is a table without geometry, which a Shapefile cannot hold (only its .dbf would be written). Give a .gpkg, .csv or .xlsx file.</source>
      <translation>{0}: deze uitvoer is een tabel zonder geometrie, die een Shapefile niet kan bevatten (alleen het .dbf-bestand zou worden geschreven). Geef een .gpkg-, .csv- of .xlsx-bestand.</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="251" />
      <source>{0}: QGIS finds the format of {1} from all that follows its first dot ('{2}') when it writes a table into it, and knows none for that: rename the file without the extra dots.</source>
      <translation>{0}: QGIS leidt het formaat van {1} af uit alles na de eerste punt ('{2}') wanneer het er een tabel in schrijft, en kent daarvoor geen formaat: hernoem het bestand zonder de extra punten.</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="282" />
      <source>{0}: an output path cannot carry '|' options ({1}). To write a table into a GeoPackage, give file.gpkg|layername=table or ogr:dbname='file.gpkg' table="table".</source>
      <translation>{0}: een uitvoerpad kan geen '|'-opties bevatten ({1}). Geef, om een tabel in een GeoPackage te schrijven, bestand.gpkg|layername=tabel of ogr:dbname='bestand.gpkg' table="tabel".</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="290" />
      <source>{0}: QGIS cannot write a table into a GeoPackage whose path holds a ' or a table whose name holds a " ({1}); rename it.</source>
      <translation>{0}: QGIS kan geen tabel schrijven in een GeoPackage waarvan het pad een ' bevat, of een tabel waarvan de naam een " bevat ({1}); hernoem die.</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="330" />
      <source>{0} is written as the table {1} of {2}, which also holds confidential data ({3}). Release the layer, not the file: save it to a file of its own (Export ▸ Save Features As) first.</source>
      <translation>{0} wordt geschreven als de tabel {1} van {2}, dat ook vertrouwelijke gegevens bevat ({3}). Publiceer de laag, niet het bestand: sla haar eerst op in een eigen bestand (Exporteren ▸ Objecten opslaan als).</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="361" />
      <source>{0}: this output is an HTML page; give a file name ending in .html (got {1}).</source>
      <translation>{0}: deze uitvoer is een HTML-pagina; geef een bestandsnaam die op .html eindigt (gekregen: {1}).</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="391" />
      <source>{0}: writes the same file as {1} ({2}); choose another file.</source>
      <translation>{0}: schrijft hetzelfde bestand als {1} ({2}); kies een ander bestand.</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="396" />
      <source>{0}: writes the same file as {1}: {2} ({0}) and {3} ({1}) both write {4}; choose another file.</source>
      <translation>{0}: schrijft hetzelfde bestand als {1}: {2} ({0}) en {3} ({1}) schrijven allebei {4}; kies een ander bestand.</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="459" />
      <source>{0}: {1} is the file of {2}; writing it would replace that layer and every other layer in the file. Choose another file.</source>
      <translation>{0}: {1} is het bestand van {2}; het schrijven ervan zou die laag en elke andere laag in het bestand vervangen. Kies een ander bestand.</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="465" />
      <source>{0}: {1} is the file of {2}; writing it would replace that input. Choose another file.</source>
      <translation>{0}: {1} is het bestand van {2}; het schrijven ervan zou die invoer vervangen. Kies een ander bestand.</translation>
    </message>
    <message>
      <location filename="../processing/destinations.py" line="476" />
      <source>{0}: the table {1} in {2} is the layer of {3}; writing it would replace that layer. Choose another table name.</source>
      <translation>{0}: de tabel {1} in {2} is de laag van {3}; het schrijven ervan zou die laag vervangen. Kies een andere tabelnaam.</translation>
    </message>
    <message>
      <location filename="../processing/executor_settings.py" line="37" />
      <source>Dask scheduler address for risk-utility sweeps (e.g. tcp://10.0.0.5:8786; empty: local processes). Confidential data travel to its workers: only a cluster inside your trusted environment</source>
      <translation>Adres van de Dask-scheduler voor risico-bruikbaarheidsverkenningen (bijv. tcp://10.0.0.5:8786; leeg: lokale processen). Vertrouwelijke gegevens gaan naar de workers van de scheduler: gebruik alleen een cluster binnen uw vertrouwde omgeving</translation>
    </message>
    <message>
      <location filename="../processing/executor_settings.py" line="46" />
      <source>Local worker processes for risk-utility sweeps (0: one per core)</source>
      <translation>Lokale werkprocessen voor risico-bruikbaarheidsverkenningen (0: één per kern)</translation>
    </message>
    <message>
      <location filename="../processing/executor_settings.py" line="89" />
      <source>A Dask scheduler address is set in Processing &gt; Options &gt; Providers &gt; Spatial Privacy, but Dask is not installed. Install it, or clear the address to run in local processes.</source>
      <translation>Er is een adres van een Dask-scheduler ingesteld in Processing &gt; Opties &gt; Providers &gt; Spatial Privacy, maar Dask is niet geïnstalleerd. Installeer Dask, of maak het adres leeg om in lokale processen te rekenen.</translation>
    </message>
    <message>
      <location filename="../processing/executor_settings.py" line="100" />
      <source>Independent sets run in: {0}.</source>
      <translation>Onafhankelijke datasets worden uitgevoerd in: {0}.</translation>
    </message>
    <message>
      <location filename="../processing/feedback.py" line="49" />
      <source>Cancelled: this algorithm wrote nothing (in a model, steps that had finished keep their outputs).</source>
      <translation>Geannuleerd: dit algoritme heeft niets geschreven (in een model behouden stappen die al klaar waren hun uitvoer).</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="66" />
      <source>{0}: {1} has no CRS, so it cannot be transformed; set the layer's CRS or leave {0} empty.</source>
      <translation>{0}: {1} heeft geen CRS en kan dus niet worden getransformeerd; stel het CRS van de laag in of laat {0} leeg.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="72" />
      <source>{0}: pick a projected CRS (metres or feet), not the geographic {1}.</source>
      <translation>{0}: kies een geprojecteerd CRS (meters of voet), niet het geografische {1}.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="78" />
      <source>Distances and sizes are read in the units of {0} {1} ({2}), not in the {3} of {4}'s CRS.</source>
      <translation>Afstanden en maten worden gelezen in de eenheden van {0} {1} ({2}), niet in de {3} van het CRS van {4}.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="88" />
      <source>{0} has no CRS: distances are taken in its coordinate units.</source>
      <translation>{0} heeft geen CRS: afstanden worden gemeten in de coördinaateenheden van de laag.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="92" />
      <source>{0} is in the geographic CRS {1} (degrees), where distances and areas have no single unit (a degree of longitude shrinks towards the poles). Pick a projected working CRS in {2} (e.g. a UTM zone or your national grid), or reproject the layer.</source>
      <translation>{0} staat in het geografische CRS {1} (graden), waarin afstanden en oppervlakten geen vaste eenheid hebben (een lengtegraad wordt naar de polen toe korter). Kies in {2} een geprojecteerd werk-CRS (bijv. een UTM-zone of uw nationale coördinatenstelsel), of herprojecteer de laag.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="104" />
      <source>no CRS</source>
      <translation>geen CRS</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="105" />
      <source>a custom CRS</source>
      <translation>een aangepast CRS</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="119" />
      <source>{0}: field '{1}' is not numeric (it is {2}); choose a numeric field.</source>
      <translation>{0}: veld '{1}' is niet numeriek (het is {2}); kies een numeriek veld.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="132" />
      <source>{0}: feature {1} has '{2}' in '{3}', which is not a number.</source>
      <translation>{0}: object {1} heeft '{2}' in '{3}', en dat is geen getal.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="144" />
      <source>{0}: the layer has no point geometry (it is a table, such as a CSV file read without its coordinates). Load a CSV as a delimited text layer (Layer &gt; Add Layer &gt; Add Delimited Text Layer) with its x and y columns as the point geometry, in the layer's CRS, and give that layer.</source>
      <translation>{0}: de laag heeft geen puntgeometrie (het is een tabel, zoals een CSV-bestand dat zonder zijn coördinaten is gelezen). Laad een CSV als tekstgescheiden laag (Kaartlagen &gt; Laag toevoegen &gt; Tekstgescheiden laag toevoegen) met de kolommen x en y als puntgeometrie, in het CRS van de laag, en geef die laag op.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="152" />
      <source>{0}: needs a point layer, got {1}.</source>
      <translation>{0}: vereist een puntlaag, maar kreeg {1}.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="194" />
      <source>Reading points</source>
      <translation>Punten inlezen</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="225" />
      <source>some</source>
      <translation>enkele</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="230" />
      <source>{0} features could not be transformed from {1} to {2} (is the layer's CRS right?)</source>
      <translation>{0} objecten konden niet worden getransformeerd van {1} naar {2} (klopt het CRS van de laag?)</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="235" />
      <source>{0} features have no geometry</source>
      <translation>{0} objecten hebben geen geometrie</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="237" />
      <source>{0} features are not points (a layer of mixed geometry)</source>
      <translation>{0} objecten zijn geen punten (een laag met gemengde geometrie)</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="239" />
      <source>{0} features are multipoints with several parts</source>
      <translation>{0} objecten zijn multipunten met meerdere delen</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="242" />
      <source>{0} features have coordinates that are not finite numbers in {1}</source>
      <translation>{0} objecten hebben coördinaten die geen eindige getallen zijn in {1}</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="248" />
      <source>{0}: {1}. Each feature must be one point; fix or deselect those features.</source>
      <translation>{0}: {1}. Elk object moet één punt zijn; corrigeer die objecten of hef de selectie ervan op.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="254" />
      <source>{0}: {1} features have a NULL value in '{2}'. Fill them in or select only the other features.</source>
      <translation>{0}: {1} objecten hebben een NULL-waarde in '{2}'. Vul die aan of selecteer alleen de overige objecten.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="259" />
      <source>{0}: the layer has no features (or none is selected).</source>
      <translation>{0}: de laag heeft geen objecten (of er is geen object geselecteerd).</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="260" />
      <source>layer units</source>
      <translation>laageenheden</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="262" />
      <source>Read the points in {0} (their number is protected and not shown).</source>
      <translation>Punten gelezen in {0} (hun aantal is beschermd en wordt niet getoond).</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="264" />
      <source>Read {0} points in {1}.</source>
      <translation>{0} punten ingelezen in {1}.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="284" />
      <source>{0}: the layer has no CRS but the points are in {1}; set its CRS so it can be transformed.</source>
      <translation>{0}: de laag heeft geen CRS, maar de punten zijn in {1}; stel het CRS van de laag in zodat ze kan worden getransformeerd.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="290" />
      <source>{0}: the layer is in {1} but the points have no CRS, so its coordinates cannot be matched to theirs. Give the points' layer its CRS (Layer Properties); or, if this layer's coordinates are in the points' units, remove its CRS (a memory layer made without one is given EPSG:4326).</source>
      <translation>{0}: de laag is in {1}, maar de punten hebben geen CRS, dus de coördinaten kunnen niet op elkaar worden afgestemd. Geef de puntenlaag haar CRS (Laageigenschappen); of verwijder, als de coördinaten van deze laag in de eenheden van de punten zijn, het CRS van deze laag (een geheugenlaag die zonder CRS is gemaakt, krijgt EPSG:4326).</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="307" />
      <source>{0}: needs a polygon layer, got {1}.</source>
      <translation>{0}: vereist een polygoonlaag, maar kreeg {1}.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="320" />
      <source>{0}: {1} could not be transformed from {2} to {3}; check the layer's CRS (its coordinates may be in other units than it says).</source>
      <translation>{0}: {1} kon(den) niet worden getransformeerd van {2} naar {3}; controleer het CRS van de laag (de coördinaten kunnen in andere eenheden zijn dan het aangeeft).</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="332" />
      <source>{0} features</source>
      <translation>{0} objecten</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="361" />
      <source>{0}: feature {1} is a {2}, not a polygon; remove it or select only the polygons.</source>
      <translation>{0}: object {1} is een {2}, geen polygoon; verwijder het of selecteer alleen de polygonen.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="367" />
      <source>feature {0}</source>
      <translation>object {0}</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="373" />
      <source>{0}: the polygon of feature {1} is not valid ({2}); repair it first, e.g. with Vector geometry ▸ Fix geometries.</source>
      <translation>{0}: de polygoon van object {1} is niet geldig ({2}); herstel die eerst, bijvoorbeeld met Vectorgeometrie ▸ Geometrieën repareren.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="388" />
      <source>{0}: the layer has no polygons.</source>
      <translation>{0}: de laag heeft geen polygonen.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="404" />
      <source>{0}: GDAL cannot read {1}.</source>
      <translation>{0}: GDAL kan {1} niet lezen.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="419" />
      <source>{0}: {1} is rotated or not north-up; warp it first.</source>
      <translation>{0}: {1} is gedraaid of niet naar het noorden gericht; herprojecteer het eerst (warp).</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="443" />
      <source>{0}: feature {1} is a {2} in a layer of {3}; give points and lines or polygons as separate layers.</source>
      <translation>{0}: object {1} is een {2} in een laag van {3}; geef punten en lijnen of polygonen als aparte lagen.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="450" />
      <source>lines or polygons</source>
      <translation>lijnen of polygonen</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="450" />
      <source>points</source>
      <translation>punten</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="470" />
      <source>{0}: {1} features have no geometry; the distances are to the other features.</source>
      <translation>{0}: {1} objecten hebben geen geometrie; de afstanden zijn tot de andere objecten.</translation>
    </message>
    <message>
      <location filename="../processing/inputs.py" line="475" />
      <source>{0}: the layer has no features to measure distances to.</source>
      <translation>{0}: de laag heeft geen objecten waartoe afstanden kunnen worden gemeten.</translation>
    </message>
    <message>
      <location filename="../processing/labels.py" line="21" />
      <source>CONFIDENTIAL: not for publication ({0}, {1})</source>
      <translation>VERTROUWELIJK: niet voor publicatie ({0}, {1})</translation>
    </message>
    <message>
      <location filename="../processing/labels.py" line="26" />
      <source>NOT PRIVATE ({0}): no privacy guarantee holds ({1}, {2})</source>
      <translation>NIET PRIVÉ ({0}): er geldt geen privacygarantie ({1}, {2})</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="65" />
      <source>Privacy-budget ledgers (*.jsonl);;All files (*)</source>
      <translation>Privacybudgetregisters (*.jsonl);;Alle bestanden (*)</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="80" />
      <source>The ledger file this release is recorded in, with its ε, δ and neighbourhood, against a keyed fingerprint of the confidential data (which reveals nothing about it); made by the first release. Before the run the log states what the release adds and the total of the data set under sequential composition. Empty: &lt;project folder&gt;/&lt;project name&gt;{0} beside the saved QGIS project; with no saved project no ledger is kept (the log says so). The key file beside it (same name, .key) must never be published. List it with spatialprivacy:privacyledger.</source>
      <translation>Het registerbestand waarin deze publicatie wordt vastgelegd, met haar ε, δ en naburigheid, onder een vingerafdruk met sleutel van de vertrouwelijke gegevens (die er niets over onthult); het wordt bij de eerste publicatie aangemaakt. Vóór de run vermeldt het log wat de publicatie toevoegt en het totaal van de dataset volgens sequentiële compositie. Leeg: &lt;map van het project&gt;/&lt;naam van het project&gt;{0} naast het opgeslagen QGIS-project; zonder opgeslagen project wordt geen register bijgehouden (het log meldt dat). Het sleutelbestand ernaast (zelfde naam, .key) mag nooit worden gepubliceerd. Toon het register met spatialprivacy:privacyledger.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="92" />
      <source>Privacy budget ε of the data set</source>
      <translation>Privacybudget ε van de dataset</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="94" />
      <source>The largest total ε the data set may reach under each neighbourhood, this release included. Empty: the budget set in the ledger for this data set (spatialprivacy:privacyledger), if any. Over budget, the run warns, or refuses with {0}.</source>
      <translation>De grootste totale ε die de dataset onder elke naburigheid mag bereiken, deze publicatie inbegrepen. Leeg: het budget dat in het register voor deze dataset is ingesteld (spatialprivacy:privacyledger), als dat er is. Boven het budget waarschuwt de run, of weigert hij met {0}.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="103" />
      <source>Privacy budget δ of the data set</source>
      <translation>Privacybudget δ van de dataset</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="105" />
      <source>The largest total δ, with {0}. Empty: 0, so any release with δ &gt; 0 exceeds the budget.</source>
      <translation>De grootste totale δ, samen met {0}. Leeg: 0, dus elke publicatie met δ &gt; 0 overschrijdt het budget.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="111" />
      <source>Refuse a release over budget</source>
      <translation>Een publicatie boven het budget weigeren</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="112" />
      <source>Refuse the run, writing nothing, when the release would take a total over the budget ({0}, or the one set in the ledger); otherwise the log warns. The ledger checks again under its lock when it records the release, so two runs started together cannot both pass.</source>
      <translation>Weiger de run, zonder iets te schrijven, als de publicatie een totaal boven het budget zou brengen ({0}, of het budget dat in het register is ingesteld); anders waarschuwt het log. Het register controleert opnieuw onder zijn vergrendeling wanneer het de publicatie vastlegt, zodat twee runs die tegelijk zijn gestart niet allebei kunnen slagen.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="131" />
      <source>{0}: {1} is a folder; give the ledger's file (e.g. {2}).</source>
      <translation>{0}: {1} is een map; geef het bestand van het register (bijv. {2}).</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="135" />
      <source>{0}: a δ budget needs an ε budget too; give {1} as well.</source>
      <translation>{0}: een δ-budget vereist ook een ε-budget; geef ook {1} op.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="139" />
      <source>{0}: the budget must be a finite number ≥ 0, got {1}.</source>
      <translation>{0}: het budget moet een eindig getal ≥ 0 zijn; opgegeven: {1}.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="279" />
      <source>NOT PRIVATE: {0}</source>
      <translation>NIET PRIVÉ: {0}</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="288" />
      <source>ε = {0}, δ = {1} over {2} release(s)</source>
      <translation>ε = {0}, δ = {1} over {2} publicatie(s)</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="292" />
      <source>; {0} not private (a seed, or bounds or a window from the data), counted as ε = ∞</source>
      <translation>; {0} niet privacyveilig (een seed, of grenzen of een studiegebied uit de gegevens), geteld als ε = ∞</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="296" />
      <source>; {0} with a nominal, unproven guarantee</source>
      <translation>; {0} met een nominale, onbewezen garantie</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="298" />
      <source>; {0} release(s) give no guarantee under this neighbourhood and are not counted</source>
      <translation>; {0} publicatie(s) geven geen garantie onder deze naburigheid en worden niet meegeteld</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="301" />
      <source> (OVER BUDGET)</source>
      <translation> (BUDGET OVERSCHREDEN)</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="306" />
      <source>nothing (it gives no guarantee here)</source>
      <translation>niets (ze geeft hier geen garantie)</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="307" />
      <source>ε = {0}, δ = {1}</source>
      <translation>ε = {0}, δ = {1}</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="313" />
      <source>Under {0}: this release adds {1}; the total becomes {2}.</source>
      <translation>Onder {0}: deze publicatie voegt {1} toe; het totaal wordt {2}.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="320" />
      <source>Totals under different neighbourhoods are not added to each other: a release counts under another neighbourhood only where a proven rule carries its guarantee there.</source>
      <translation>Totalen onder verschillende naburigheden worden niet bij elkaar opgeteld: een publicatie telt onder een andere naburigheid alleen mee waar een bewezen regel haar garantie daarheen overdraagt.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="330" />
      <source>ε = {0}, δ = {1} per neighbourhood ({2})</source>
      <translation>ε = {0}, δ = {1} per naburigheid ({2})</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="388" />
      <source>No privacy-budget ledger is kept for this release: no {0} was given and the QGIS project is not saved. Give {0} (or save the project) to add up the privacy spent on this data set.</source>
      <translation>Voor deze publicatie wordt geen privacybudgetregister bijgehouden: er is geen {0} opgegeven en het QGIS-project is niet opgeslagen. Geef {0} op (of sla het project op) om de aan deze dataset bestede privacy op te tellen.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="399" />
      <source>Privacy-budget ledger {0}: new; it and its key file {1} (never to be published) are made when this release is recorded.</source>
      <translation>Privacybudgetregister {0}: nieuw; het register en zijn sleutelbestand {1} (nooit publiceren) worden aangemaakt wanneer deze publicatie wordt vastgelegd.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="409" />
      <source>Privacy-budget ledger {0}: data set {1} ({2}), {3} earlier release(s).</source>
      <translation>Privacybudgetregister {0}: dataset {1} ({2}), {3} eerdere publicatie(s).</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="418" />
      <source>set in the ledger</source>
      <translation>ingesteld in het register</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="418" />
      <source>{0}, {1}</source>
      <translation>{0}, {1}</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="424" />
      <source>This release is not private ({0}): it is recorded flagged and counts as ε = ∞, which spends the whole budget of its data set.</source>
      <translation>Deze publicatie is niet privacyveilig ({0}): ze wordt gemarkeerd vastgelegd en telt als ε = ∞, wat het hele budget van haar dataset verbruikt.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="430" />
      <source>With this release the data set's totals exceed its privacy budget: {0}.</source>
      <translation>Met deze publicatie overschrijden de totalen van de dataset het privacybudget: {0}.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="435" />
      <source>{0}: {1} Nothing was written. Raise {0} (or {2}) if the budget allows it, or release less (a smaller ε); {3} refused the run.</source>
      <translation>{0}: {1} Er is niets geschreven. Verhoog {0} (of {2}) als het budget dat toelaat, of publiceer minder (een kleinere ε); {3} heeft de run geweigerd.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="440" />
      <source>Set {0} to refuse such runs.</source>
      <translation>Zet {0} aan om zulke runs te weigeren.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="443" />
      <source>{0}: no budget is set for this data set ({1} is empty and the ledger sets none).</source>
      <translation>{0}: voor deze dataset is geen budget ingesteld ({1} is leeg en het register stelt er geen in).</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="477" />
      <source>{0}: another run recorded a release of the same data set in the ledger {1} meanwhile; with it, this release would exceed the budget, so it was not recorded and nothing was written. {2}</source>
      <translation>{0}: een andere run heeft intussen een publicatie van dezelfde dataset vastgelegd in het register {1}; daarmee zou deze publicatie het budget overschrijden, dus is ze niet vastgelegd en is er niets geschreven. {2}</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="484" />
      <source>The outputs written in place ({0}) stay, NOT recorded.</source>
      <translation>De ter plaatse geschreven uitvoer ({0}) blijft staan, NIET vastgelegd.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="488" />
      <source>Nothing was written.</source>
      <translation>Er is niets geschreven.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="493" />
      <source>Recorded as release {0} of data set {1} in the privacy-budget ledger {2}.</source>
      <translation>Vastgelegd als publicatie {0} van dataset {1} in het privacybudgetregister {2}.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="504" />
      <source>With releases recorded meanwhile by another run, the data set is now over its budget; {0} could not refuse this run because {1} had been written in place.</source>
      <translation>Door publicaties die intussen door een andere run zijn vastgelegd, zit de dataset nu boven zijn budget; {0} kon deze run niet weigeren, omdat {1} al ter plaatse was geschreven.</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="518" />
      <source>None was kept for this release (no ledger file and no saved project).</source>
      <translation>Voor deze publicatie is geen register bijgehouden (geen registerbestand en geen opgeslagen project).</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="520" />
      <source>Ledger</source>
      <translation>Register</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="522" />
      <source>Adds under {0}</source>
      <translation>Voegt toe onder {0}</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="523" />
      <source>Total of the data set (checked before the run)</source>
      <translation>Totaal van de dataset (gecontroleerd vóór de run)</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="525" />
      <source>Budget</source>
      <translation>Budget</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="527" />
      <source>Recorded as</source>
      <translation>Vastgelegd als</translation>
    </message>
    <message>
      <location filename="../processing/ledger.py" line="527" />
      <source>not private: counted as ε = ∞</source>
      <translation>niet privacyveilig: geteld als ε = ∞</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_inputs.py" line="52" />
      <source>{0}: no such file: {1}</source>
      <translation>{0}: bestand bestaat niet: {1}</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_inputs.py" line="59" />
      <source>{0}: {1} is not a model file of spatialprivacy:fitlgcp ({2}).</source>
      <translation>{0}: {1} is geen modelbestand van spatialprivacy:fitlgcp ({2}).</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_inputs.py" line="72" />
      <source>{0} points lie far from the rest (more than {1:g} times the median distance from the points' centre) and more than double the size of the window drawn around the points: a geocoding error, or points from elsewhere? Check them, or give a {2}.</source>
      <translation>{0} punten liggen ver van de rest (meer dan {1:g} keer de mediane afstand tot het midden van de punten) en maken het gebied dat om de punten wordt getrokken meer dan twee keer zo groot: een geocodeerfout, of punten van elders? Controleer ze, of geef een {2} op.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="38" />
      <source>Radial perturbation (Section 5.1, baseline)</source>
      <translation>Radiale verstoring (Sectie 5.1, referentiemethode)</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="39" />
      <source>Additive noise synthesis, ANS (Section 5.2, eq. 10)</source>
      <translation>Synthese met additieve ruis, ANS (Sectie 5.2, vgl. 10)</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="40" />
      <source>Posterior resampling synthesis, PRS (Section 5.3, eq. 11)</source>
      <translation>Synthese door hertrekking uit de a-posterioriverdeling, PRS (Sectie 5.3, vgl. 11)</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="75" />
      <source>&lt;p&gt;&lt;b&gt;Guarantee.&lt;/b&gt; None in the sense of differential privacy (no ε or δ): Walder et al. measure protection empirically. The disclosure risk of person k is the probability that an intruder who knows every other confidential location, the synthetic points and the method places k within the risk radius of the truth (eq. 16). Run spatialprivacy:disclosurerisk (or the sweep) before publishing, and publish only the synthetic points.&lt;/p&gt;</source>
      <translation>&lt;p&gt;&lt;b&gt;Garantie.&lt;/b&gt; Geen in de zin van differentiële privacy (geen ε of δ): Walder et al. meten de bescherming empirisch. Het onthullingsrisico van persoon k is de kans dat een aanvaller die elke andere vertrouwelijke locatie, de synthetische punten en de methode kent, k binnen de risicostraal van de werkelijke locatie plaatst (vgl. 16). Voer vóór publicatie spatialprivacy:disclosurerisk (of de risico-bruikbaarheidsverkenning) uit, en publiceer alleen de synthetische punten.&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="111" />
      <source>The confidential points (cases, crimes, ...). Only their locations are used. At least 10.</source>
      <translation>De vertrouwelijke punten (ziektegevallen, misdrijven, ...). Alleen hun locaties worden gebruikt. Ten minste 10.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="115" />
      <source>Fitted model (from 'Fit a log-Gaussian Cox process')</source>
      <translation>Geschat model (uit 'Log-Gaussisch Cox-proces schatten')</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="117" />
      <source>The .npz model file written by spatialprivacy:fitlgcp for this very layer (checked: same number of points, same locations, same CRS). It fixes the window, mesh and covariates. Empty: the model is fitted here with the fast method and the options below.</source>
      <translation>Het .npz-modelbestand dat spatialprivacy:fitlgcp voor precies deze laag heeft geschreven (gecontroleerd: hetzelfde aantal punten, dezelfde locaties, hetzelfde CRS). Het legt het studiegebied, het driehoeksnet en de covariaten vast. Leeg: het model wordt hier geschat met de snelle methode en de onderstaande opties.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="125" />
      <source>Used only when no model file is given: polygons of the study region; every point must lie inside. Empty: the points' bounding box enlarged by 5%.</source>
      <translation>Alleen gebruikt als er geen modelbestand is opgegeven: polygonen van het studiegebied; elk punt moet erbinnen liggen. Leeg: de omhullende rechthoek van de punten, vergroot met 5%.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="130" />
      <source>Synthetic points are drawn inside it.</source>
      <translation>Synthetische punten worden daarbinnen getrokken.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="132" />
      <source>The synthetic points must lie inside it.</source>
      <translation>De synthetische punten moeten erbinnen liggen.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="137" />
      <source>Used only when no model file is given: adds the covariate 'distance to the nearest feature of this layer', e.g. John Snow's Broad Street pump.</source>
      <translation>Alleen gebruikt als er geen modelbestand is opgegeven: voegt de covariaat 'afstand tot het dichtstbijzijnde object van deze laag' toe, bijv. de pomp in Broad Street van John Snow.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="144" />
      <source>Used only when no model file is given: rasters (band 1) used as covariates; they must cover the window.</source>
      <translation>Alleen gebruikt als er geen modelbestand is opgegeven: rasters (band 1) die als covariaten worden gebruikt; ze moeten het studiegebied bedekken.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="152" />
      <source>Used only when no model file is given: known log-intensity offset, e.g. log population density.</source>
      <translation>Alleen gebruikt als er geen modelbestand is opgegeven: bekende offset van de log-intensiteit, bijv. de logaritme van de bevolkingsdichtheid.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="157" />
      <source>Used only when no model file is given: mesh resolution (CRS units). Empty: 1/40 of the window's larger side.</source>
      <translation>Alleen gebruikt als er geen modelbestand is opgegeven: resolutie van het driehoeksnet (CRS-eenheden). Leeg: 1/40 van de langste zijde van het studiegebied.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="167" />
      <source>The synthetic points to assess, e.g. the output of spatialprivacy:synthesizelgcp. Must be in the same CRS as the confidential layer and inside the model's window.</source>
      <translation>De te beoordelen synthetische punten, bijv. de uitvoer van spatialprivacy:synthesizelgcp. Ze moeten in hetzelfde CRS staan als de vertrouwelijke laag en binnen het studiegebied van het model liggen.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="176" />
      <source>Synthesis method</source>
      <translation>Synthesemethode</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="177" />
      <source>Radial: each point moved uniformly within RADIUS (the usual practice). ANS: the posterior-mean intensity times exp(noise field) with the fitted spatial scale. PRS: a fresh random field with the fitted range and variance (Walder et al. recommend it: lowest risk).</source>
      <translation>Radiaal: elk punt wordt uniform binnen RADIUS verplaatst (de gangbare praktijk). ANS: het a-posteriorigemiddelde van de intensiteit maal exp(ruisveld) met de geschatte ruimtelijke schaal. PRS: een nieuw toevalsveld met het geschatte bereik en de geschatte variantie (aanbevolen door Walder et al.: laagste risico).</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="185" />
      <source>Perturbation radius (radial)</source>
      <translation>Verstoringsstraal (radiaal)</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="187" />
      <source>Radius r &gt; 0 of the uniform disc of radial perturbation, in CRS units. Required for radial. The moved points lie on a lattice of r / 65,536 (1.5 mm for 100 m), so that their coordinates carry none of the true locations' low digits.</source>
      <translation>Straal r &gt; 0 van de uniforme schijf van de radiale verstoring, in CRS-eenheden. Verplicht voor radiaal. De verplaatste punten liggen op een rooster van r / 65.536 (1,5 mm bij 100 m), zodat hun coördinaten geen van de lage cijfers van de ware locaties bevatten.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="195" />
      <source>Noise variance (ANS)</source>
      <translation>Ruisvariantie (ANS)</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="197" />
      <source>Marginal variance of the ANS noise field added to the log intensity (dimensionless; 0 = Quick et al.'s plug-in synthesis). Walder et al.'s noise level σ² (eq. 10) is on the scale of the field's variance parameter ξ², which depends on the CRS unit; σ² = 4πκ̂² × this value, which the report prints. More noise: lower utility and, usually, lower risk.</source>
      <translation>Marginale variantie van het ANS-ruisveld dat bij de log-intensiteit wordt opgeteld (dimensieloos; 0 = de plug-in-synthese van Quick et al.). Het ruisniveau σ² van Walder et al. (vgl. 10) ligt op de schaal van de variantieparameter ξ² van het veld, die van de CRS-eenheid afhangt; σ² = 4πκ̂² × deze waarde, die in het rapport wordt vermeld. Meer ruis: lagere bruikbaarheid en doorgaans een lager risico.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="211" />
      <source>Radius r &gt; 0 (CRS units) within which the intruder must place a person for a disclosure (eq. 16), e.g. the size of a house or plot.</source>
      <translation>Straal r &gt; 0 (CRS-eenheden) waarbinnen de aanvaller een persoon moet plaatsen om tot een onthulling te komen (vgl. 16), bijv. de grootte van een huis of perceel.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="220" />
      <source>Exact leave-one-out density</source>
      <translation>Exacte leave-one-out-dichtheid</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="220" />
      <source>Paper: normalised CPO density (eqs. 17-18, 21)</source>
      <translation>Artikel: genormaliseerde CPO-dichtheid (vgl. 17-18, 21)</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="224" />
      <source>Exact (default): the intruder's leave-one-out predictive density π(s | S₋ₖ, S†) of eq. 16, from the same posterior draws by importance weighting; it integrates to 1 and gives eq. 16's probability. Paper: the CPO formula evaluated at every location, then normalised over its support (the paper prints no normalisation), as the paper computes it; on John Snow's deaths its maximum risks are 1.4-1.6 times the exact ones for ANS and PRS, up to 3.4 times for radial sets. Choose it to compare with the paper.</source>
      <translation>Exact (standaard): de leave-one-out-voorspellende dichtheid π(s | S₋ₖ, S†) van de aanvaller uit vgl. 16, uit dezelfde posterior-trekkingen door importance weighting; ze integreert tot 1 en geeft de kans van vgl. 16. Artikel: de CPO-formule op elke locatie geëvalueerd en daarna over haar drager genormaliseerd (het artikel drukt geen normalisatie af), zoals het artikel haar berekent; op de sterfgevallen van John Snow zijn haar maximale risico's 1,4-1,6 keer de exacte voor ANS en PRS, tot 3,4 keer voor radiale sets. Kies haar om met het artikel te vergelijken.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="241" />
      <source>Hyperparameters of the synthetic and joint fits</source>
      <translation>Hyperparameters van de synthetische en de gezamenlijke schatting</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="243" />
      <source>Fixed at the confidential posterior means (fast)</source>
      <translation>Vast op de vertrouwelijke a-posteriorigemiddelden (snel)</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="244" />
      <source>Integrated (as the paper; 20-80x slower)</source>
      <translation>Geïntegreerd (zoals in het artikel; 20-80x langzamer)</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="249" />
      <source>Fixed: one Laplace fit at the confidential posterior means of κ² and ξ² (about half a second on 1,900 mesh nodes); it ignores their uncertainty. Integrated: the full fast posterior.</source>
      <translation>Vast: één Laplace-schatting bij de vertrouwelijke a-posteriorigemiddelden van κ² en ξ² (ongeveer een halve seconde bij 1.900 knopen van het driehoeksnet); de onzekerheid daarvan wordt genegeerd. Geïntegreerd: de volledige snelle a-posterioriverdeling.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="258" />
      <source>Posterior draws behind the risk estimates (Monte Carlo averages over them).</source>
      <translation>Trekkingen uit de a-posterioriverdeling waarop de schattingen van het risico berusten (Monte-Carlogemiddelden daarover).</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="259" />
      <source>Posterior draws behind the pMSE estimate (Monte Carlo averages over them).</source>
      <translation>Trekkingen uit de a-posterioriverdeling waarop de schatting van de pMSE berust (Monte-Carlogemiddelden daarover).</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="261" />
      <source>Posterior draws behind the risk and pMSE estimates (Monte Carlo averages over them).</source>
      <translation>Trekkingen uit de a-posterioriverdeling waarop de schattingen van het risico en de pMSE berusten (Monte-Carlogemiddelden daarover).</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="267" />
      <source>Needed only when the layer is in degrees; radii are then in this CRS's units.</source>
      <translation>Alleen nodig als de laag in graden is; stralen zijn dan in de eenheden van dit CRS.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="296" />
      <source>Fitting the LGCP to the confidential points ({0} mesh nodes).</source>
      <translation>LGCP schatten op de vertrouwelijke punten ({0} knopen van het driehoeksnet).</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="313" />
      <source>{0} ignored: the model file {1} fixes the window, mesh and covariates.</source>
      <translation>{0} genegeerd: het modelbestand {1} legt het studiegebied, het driehoeksnet en de covariaten vast.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="340" />
      <source>Model file checked: it was fitted to these {0} points.</source>
      <translation>Modelbestand gecontroleerd: het is geschat op deze {0} punten.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="344" />
      <source>The edge-midpoint integration was fooled by fields with spikes at single mesh nodes (a clustered pattern), so the confidential points were refitted with the degree-3 rule.</source>
      <translation>De ribbemiddenintegratie werd misleid door velden met pieken op afzonderlijke meshknopen (een geclusterd patroon), dus zijn de vertrouwelijke punten opnieuw gefit met de graad-3-regel.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="354" />
      <source>{0} = {1}, but the model holds {2} posterior draws: all {2} are used.</source>
      <translation>{0} = {1}, maar het model bevat {2} trekkingen uit de posterior: alle {2} worden gebruikt.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="403" />
      <source>{0}: all {1} of its points are confidential locations: it is the confidential layer (or part of it), not a synthetic set. Pick the synthetic layer.</source>
      <translation>{0}: alle {1} punten liggen op vertrouwelijke locaties: dit is de vertrouwelijke laag (of een deel ervan), geen synthetische dataset. Kies de synthetische laag.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="410" />
      <source>{0}: {1} of its {2} points lie exactly on confidential locations, which synthesizers rarely do by chance; check that it is the synthetic layer you mean and that it was not edited with the data.</source>
      <translation>{0}: {1} van de {2} punten liggen precies op vertrouwelijke locaties, wat synthesizers zelden toevallig doen; controleer of dit de bedoelde synthetische laag is en of die niet samen met de gegevens is bewerkt.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="431" />
      <source>{0}: radial perturbation needs a radius &gt; 0.</source>
      <translation>{0}: radiale verstoring vereist een straal &gt; 0.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="451" />
      <source>{0}: the radius must be a finite number &gt; 0, got {1}.</source>
      <translation>{0}: de straal moet een eindig getal &gt; 0 zijn; opgegeven: {1}.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="461" />
      <source>{0}: radius {1} is below half the median distance between neighbouring confidential locations ({2:.4g}): most moved points stay nearer their own person than any neighbour. Its disclosure risk will show it; consider larger radii.</source>
      <translation>{0}: straal {1} is kleiner dan de helft van de mediane afstand tussen naburige vertrouwelijke locaties ({2:.4g}): de meeste verplaatste punten blijven dichter bij hun eigen persoon dan bij enige buur. Het onthullingsrisico zal dat tonen; overweeg grotere stralen.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="474" />
      <source>No differential-privacy guarantee: assess the disclosure risk (eq. 16) with spatialprivacy:disclosurerisk before publishing.</source>
      <translation>Geen garantie van differentiële privacy: beoordeel vóór publicatie het onthullingsrisico (vgl. 16) met spatialprivacy:disclosurerisk.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="479" />
      <source>Guarantee</source>
      <translation>Garantie</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="491" />
      <source>{0} is not recorded in a privacy-budget ledger: this synthesis has no ε or δ to add up. A ledger's totals for these points do not cover it; publishing it beside differentially private releases of the same points leaves them no combined guarantee.</source>
      <translation>{0} wordt niet vastgelegd in een privacybudgetregister: deze synthese heeft geen ε of δ om op te tellen. De totalen van een register voor deze punten dekken haar niet; als u haar naast publicaties met differentiële privacy van dezelfde punten publiceert, houden die samen geen garantie over.</translation>
    </message>
    <message>
      <location filename="../processing/lgcp_synthesis_base.py" line="502" />
      <source>Synthetic points ({0})</source>
      <translation>Synthetische punten ({0})</translation>
    </message>
    <message>
      <location filename="../processing/marked_layers.py" line="70" />
      <source>{0}: the field '{1}' must hold the set numbers 1..L (whole numbers), but it is {2}.</source>
      <translation>{0}: het veld '{1}' moet de datasetnummers 1..L bevatten (gehele getallen), maar het is {2}.</translation>
    </message>
    <message>
      <location filename="../processing/marked_layers.py" line="88" />
      <source>Reading {0}</source>
      <translation>{0} inlezen</translation>
    </message>
    <message>
      <location filename="../processing/marked_layers.py" line="117" />
      <source>{0}: {1} features are not single points with finite coordinates in the working CRS (e.g. feature {2}); fix or deselect them.</source>
      <translation>{0}: {1} objecten zijn geen enkelvoudige punten met eindige coördinaten in het werk-CRS (bijv. object {2}); corrigeer die objecten of hef de selectie ervan op.</translation>
    </message>
    <message>
      <location filename="../processing/marked_layers.py" line="124" />
      <source>{0}: {1} features have a NULL value in '{2}'; fill them in or select only the other features.</source>
      <translation>{0}: {1} objecten hebben een NULL-waarde in '{2}'; vul die aan of selecteer alleen de overige objecten.</translation>
    </message>
    <message>
      <location filename="../processing/marked_layers.py" line="130" />
      <source>{0}: {1} features have a set number in '{2}' that is NULL or not a whole number &gt;= 1 (e.g. {3}); a synthetic layer numbers its sets 1..L.</source>
      <translation>{0}: {1} objecten hebben in '{2}' een datasetnummer dat NULL is of geen geheel getal &gt;= 1 (bijv. {3}); een synthetische laag nummert haar datasets 1..L.</translation>
    </message>
    <message>
      <location filename="../processing/marked_output.py" line="108" />
      <source>{0}: {1} could not be written: {2}</source>
      <translation>{0}: {1} kon niet worden geschreven: {2}</translation>
    </message>
    <message>
      <location filename="../processing/marked_output.py" line="122" />
      <source>{0}: wrote set_1.gpkg to set_{1}.gpkg.</source>
      <translation>{0}: set_1.gpkg tot en met set_{1}.gpkg geschreven.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="62" />
      <source>Street network (line layer)</source>
      <translation>Stratennetwerk (lijnlaag)</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="72" />
      <source>Snapping tolerance (network)</source>
      <translation>Snaptolerantie (netwerk)</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="74" />
      <source>Line ends and vertices of NETWORK closer than this are merged into one junction, and a line end this close to another line joins it there (a street that stops short of, or overshoots, the street it meets), in the CRS units. 0: automatic, 1e-9 times the network's extent, so that only ends that coincide up to rounding meet. The report says how many vertices were snapped and how far.</source>
      <translation>Lijneinden en hoekpunten van NETWORK die dichter bij elkaar liggen dan deze afstand worden samengevoegd tot één knooppunt, en een lijneinde dat zo dicht bij een andere lijn ligt, wordt daar op die lijn aangesloten (een straat die net vóór de straat waarop ze uitkomt ophoudt, of er net overheen schiet), in de CRS-eenheden. 0: automatisch, 1e-9 keer de omvang van het netwerk, zodat alleen einden die op afronding na samenvallen op elkaar aansluiten. Het rapport vermeldt hoeveel hoekpunten zijn gesnapt en over welke afstand.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="83" />
      <source>Join lines where they cross (network)</source>
      <translation>Lijnen verbinden waar ze elkaar kruisen (netwerk)</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="84" />
      <source>Checked (default): two lines of NETWORK that cross without a shared vertex are joined at the crossing, as streets digitised as whole lines through their junctions need (Snow's map, many municipal layers): there one can turn from one street into the other. Unchecked: such lines pass over each other (bridges and tunnels), for layers that put a vertex at every junction and keep grade-separated crossings apart (e.g. OpenStreetMap). Line ends lying on another line join it either way. The report says how many crossings were joined.</source>
      <translation>Aangevinkt (standaard): twee lijnen van NETWORK die elkaar kruisen zonder gedeeld hoekpunt, worden op de kruising met elkaar verbonden, zoals nodig is voor straten die als hele lijnen door hun kruispunten zijn gedigitaliseerd (de kaart van Snow, veel gemeentelijke lagen): daar kan men van de ene straat de andere in slaan. Niet aangevinkt: zulke lijnen lopen over elkaar heen (bruggen en tunnels), voor lagen die op elk kruispunt een hoekpunt hebben en ongelijkvloerse kruisingen gescheiden houden (bijv. OpenStreetMap). Lijneinden die op een andere lijn liggen, worden in beide gevallen op die lijn aangesloten. Het rapport vermeldt hoeveel kruisingen zijn verbonden.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="97" />
      <source>Disconnected parts of the network</source>
      <translation>Niet-verbonden delen van het netwerk</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="99" />
      <source>Refuse a network in several parts</source>
      <translation>Een netwerk in meerdere delen weigeren</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="100" />
      <source>Use the parts that hold points</source>
      <translation>De delen met punten gebruiken</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="101" />
      <source>Use the largest part (points elsewhere refused)</source>
      <translation>Het grootste deel gebruiken (punten elders geweigerd)</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="106" />
      <source>What to do when NETWORK falls apart into parts that no path joins (a detached estate, a line end beyond the snapping tolerance): refuse it (default; the message lists the parts and their lengths), use only the parts on which points lie (the other parts are left out of the network and its length; no point is dropped), or use the largest part and refuse points that lie on another. The log and the report say how many parts were left out and how long they are. For a private release prefer the largest part: which parts hold points depends on the confidential points, so a synthesis on them is labelled NOT PRIVATE.</source>
      <translation>Wat er moet gebeuren als NETWORK uiteenvalt in delen die door geen enkel pad met elkaar verbonden zijn (een losliggende wijk, een lijneinde buiten de snaptolerantie): het netwerk weigeren (standaard; de melding noemt de delen en hun lengtes), alleen de delen gebruiken waarop punten liggen (de overige delen worden weggelaten uit het netwerk en zijn lengte; er wordt geen punt weggelaten), of het grootste deel gebruiken en punten weigeren die op een ander deel liggen. Het log en het rapport vermelden hoeveel delen zijn weggelaten en hoe lang ze zijn. Kies voor een privacyveilige publicatie het grootste deel: welke delen punten bevatten, hangt af van de vertrouwelijke punten, dus een synthese op die delen wordt gemarkeerd als NIET PRIVÉ.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="119" />
      <source>Largest distance from a point to the network</source>
      <translation>Grootste afstand van een punt tot het netwerk</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="121" />
      <source>Each point of {0} is moved to the nearest location on NETWORK. A point farther than this from every line is refused (the message names this parameter): a check that the points and the network match (same area, same CRS). Empty: no limit. {1}</source>
      <translation>Elk punt van {0} wordt naar de dichtstbijzijnde locatie op NETWORK verplaatst. Een punt dat verder dan deze afstand van elke lijn ligt, wordt geweigerd (de melding noemt deze parameter): een controle of de punten en het netwerk bij elkaar passen (zelfde gebied, zelfde CRS). Leeg: geen limiet. {1}</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="127" />
      <source>The log and the report give the largest and the mean distance moved (derived from the confidential points, like the other outputs of this tool).</source>
      <translation>Het log en het rapport geven de grootste en de gemiddelde verplaatsingsafstand (afgeleid van de vertrouwelijke punten, net als de andere uitvoer van dit hulpmiddel).</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="132" />
      <source>How far the points moved is derived from the confidential points (the largest move singles out the most isolated point), so neither the log nor the report gives it: the log says only that all points were placed and, with a limit, that none lay farther.</source>
      <translation>Hoe ver de punten zijn verplaatst, is afgeleid van de vertrouwelijke punten (de grootste verplaatsing wijst het meest geïsoleerde punt aan), dus noch het log noch het rapport vermeldt het: het log meldt alleen dat alle punten zijn geplaatst en, bij een limiet, dat er geen enkel verder weg lag.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="146" />
      <source>{0} is used only with a {1}; it is ignored.</source>
      <translation>{0} wordt alleen gebruikt met een {1}; het wordt genegeerd.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="181" />
      <source>{0}: the layer has no geometry (a table); give a line layer of streets.</source>
      <translation>{0}: de laag heeft geen geometrie (een tabel); geef een lijnlaag met straten op.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="185" />
      <source>{0}: needs a line layer of streets, got {1}.</source>
      <translation>{0}: vereist een lijnlaag met straten, maar kreeg {1}.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="196" />
      <source>{0} is in {1} but {2} is in {3}: the network and the points must be in the same CRS. Reproject {0} to the CRS of {2}, or pick a projected {4} that both are transformed to.</source>
      <translation>{0} staat in {1}, maar {2} staat in {3}: het netwerk en de punten moeten in hetzelfde CRS staan. Herprojecteer {0} naar het CRS van {2}, of kies een geprojecteerd {4} waarnaar beide worden getransformeerd.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="213" />
      <source>Reading the network</source>
      <translation>Netwerk inlezen</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="225" />
      <source>{0}: feature {1} is a {2}, not a line; remove it or select only the lines.</source>
      <translation>{0}: object {1} is een {2}, geen lijn; verwijder het of selecteer alleen de lijnen.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="234" />
      <source>{0}: feature {1} has coordinates that are not finite numbers in the working CRS; check the layer's CRS.</source>
      <translation>{0}: object {1} heeft coördinaten die geen eindige getallen zijn in het werk-CRS; controleer het CRS van de laag.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="278" />
      <source>{0}: {1} features could not be transformed from {2} to {3}; check the layer's CRS.</source>
      <translation>{0}: {1} objecten konden niet worden getransformeerd van {2} naar {3}; controleer het CRS van de laag.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="284" />
      <source>{0}: {1} features have no geometry and are left out of the network.</source>
      <translation>{0}: {1} objecten hebben geen geometrie en worden uit het netwerk weggelaten.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="288" />
      <source>{0}: the layer has no lines (or none is selected); give a layer of streets.</source>
      <translation>{0}: de laag heeft geen lijnen (of er is geen lijn geselecteerd); geef een laag met straten op.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="307" />
      <source>{0} crossings without a shared vertex joined</source>
      <translation>{0} kruisingen zonder gedeeld hoekpunt verbonden</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="309" />
      <source>crossings without a shared vertex kept apart ({0} off)</source>
      <translation>kruisingen zonder gedeeld hoekpunt gescheiden gehouden ({0} uit)</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="311" />
      <source>{0}: {1} features, {2} line parts ({3} with curves, cut into straight segments), {4} straight segments. Snapping tolerance {5:.6g}: {6} vertices snapped (the farthest by {7:.6g}), {8} line ends joined to the line they touch, {9}, {10} segments of zero length and {11} duplicates dropped. The network has {12} edges and {13} vertices, total length {14:.6g}, in {15} connected part(s).</source>
      <translation>{0}: {1} objecten, {2} lijndelen ({3} met bogen, opgedeeld in rechte segmenten), {4} rechte segmenten. Snaptolerantie {5:.6g}: {6} hoekpunten gesnapt (het verste over {7:.6g}), {8} lijneinden aangesloten op de lijn die ze raken, {9}, {10} segmenten met lengte nul en {11} duplicaten weggelaten. Het netwerk heeft {12} kanten en {13} hoekpunten, totale lengte {14:.6g}, aantal samenhangende delen: {15}.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="338" />
      <source>{0:.6g} ({1} segments)</source>
      <translation>{0:.6g} ({1} segmenten)</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="340" />
      <source> and {0} more</source>
      <translation> en nog {0}</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="373" />
      <source>{0}: some points of {1} lie farther than {2:g} from every line of {3} (how many and how far is not shown: the Laplace method protects the number of points). Check that the points and the network match (same area, same CRS), or allow a larger {0}.</source>
      <translation>{0}: enkele punten van {1} liggen verder dan {2:g} van elke lijn van {3} (hoeveel en hoe ver wordt niet getoond: de Laplace-methode beschermt het aantal punten). Controleer of de punten en het netwerk bij elkaar passen (zelfde gebied, zelfde CRS), of sta een grotere {0} toe.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="382" />
      <source>{0}: {1} of the {2} points of {3} lie farther than {4:g} from every line of {5}. Check that the points and the network match (same area, same CRS), or allow a larger {0}.</source>
      <translation>{0}: {1} van de {2} punten van {3} liggen verder dan {4:g} van elke lijn van {5}. Controleer of de punten en het netwerk bij elkaar passen (zelfde gebied, zelfde CRS), of sta een grotere {0} toe.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="388" />
      <source>{0}: {1} of the {2} points of {3} lie farther than {4:g} from every line of {5} (the farthest {6:.6g}). Check that the points and the network match (same area, same CRS), or allow a larger {0}.</source>
      <translation>{0}: {1} van de {2} punten van {3} liggen verder dan {4:g} van elke lijn van {5} (het verste op {6:.6g}). Controleer of de punten en het netwerk bij elkaar passen (zelfde gebied, zelfde CRS), of sta een grotere {0} toe.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="431" />
      <source>Placed all points of {0} on the nearest line of the network{1}.</source>
      <translation>Alle punten van {0} zijn op de dichtstbijzijnde lijn van het netwerk geplaatst{1}.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="433" />
      <source>; none lay farther than {0} = {1:g}</source>
      <translation>; geen enkel punt lag verder weg dan {0} = {1:g}</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="438" />
      <source>Placed the points of {0} on the nearest line of the network: the largest move {1:.6g}, the mean {2:.6g} (CRS units). These figures come from the confidential points.</source>
      <translation>De punten van {0} zijn op de dichtstbijzijnde lijn van het netwerk geplaatst: de grootste verplaatsing {1:.6g}, de gemiddelde {2:.6g} (CRS-eenheden). Deze cijfers komen uit de vertrouwelijke punten.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="458" />
      <source>{0}: the network falls apart into {1} parts that no path joins (lengths {2}). Join them (a larger {3} joins line ends that nearly meet), or set {4} to use the parts that hold points or the largest part.</source>
      <translation>{0}: het netwerk valt uiteen in {1} delen die door geen enkel pad met elkaar verbonden zijn (lengtes {2}). Verbind ze (een grotere {3} sluit lijneinden aan die elkaar bijna raken), of stel {4} zo in dat de delen met punten of het grootste deel worden gebruikt.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="470" />
      <source>{0}: {1} of {2} lie on other parts of the network than the largest (whose length is {3:.6g}); set {0} to use the parts that hold points, or join the parts.</source>
      <translation>{0}: {1} van {2} liggen op andere delen van het netwerk dan het grootste (met lengte {3:.6g}); stel {0} zo in dat de delen met punten worden gebruikt, of verbind de delen.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="475" />
      <source>some points</source>
      <translation>enkele punten</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="477" />
      <source>{0} of the {1} points</source>
      <translation>{0} van de {1} punten</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="488" />
      <source>{0}: the network falls apart into {1} parts (lengths {2}); {3} used ({4} part(s), length {5:.6g}), {6} part(s) of total length {7:.6g} left out. No point was dropped.</source>
      <translation>{0}: het netwerk valt uiteen in {1} delen (lengtes {2}); {3} gebruikt ({4} deel/delen, lengte {5:.6g}), {6} deel/delen met een totale lengte van {7:.6g} weggelaten. Er is geen punt weggelaten.</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="495" />
      <source>the largest part</source>
      <translation>het grootste deel</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="495" />
      <source>the parts that hold points</source>
      <translation>de delen met punten</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="512" />
      <source>Network layer</source>
      <translation>Netwerklaag</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="513" />
      <source>Features, line parts, with curves</source>
      <translation>Objecten, lijndelen, met bogen</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="514" />
      <source>Features without geometry (left out)</source>
      <translation>Objecten zonder geometrie (weggelaten)</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="515" />
      <source>Straight segments read</source>
      <translation>Ingelezen rechte segmenten</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="516" />
      <source>Snapping tolerance used (CRS units)</source>
      <translation>Gebruikte snaptolerantie (CRS-eenheden)</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="517" />
      <source>Vertices snapped (the farthest move)</source>
      <translation>Gesnapte hoekpunten (de verste verplaatsing)</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="518" />
      <source>Line ends joined to the line they touch</source>
      <translation>Lijneinden aangesloten op de lijn die ze raken</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="520" />
      <source>Crossings without a shared vertex</source>
      <translation>Kruisingen zonder gedeeld hoekpunt</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="521" />
      <source>kept apart (not searched)</source>
      <translation>gescheiden gehouden (niet gezocht)</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="521" />
      <source>{0} joined</source>
      <translation>{0} verbonden</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="523" />
      <source>Zero-length segments and duplicates dropped</source>
      <translation>Weggelaten segmenten met lengte nul en duplicaten</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="524" />
      <source>Connected parts (lengths)</source>
      <translation>Samenhangende delen (lengtes)</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="529" />
      <source>Parts left out (total length)</source>
      <translation>Weggelaten delen (totale lengte)</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="534" />
      <source>Network used: edges, vertices</source>
      <translation>Gebruikt netwerk: kanten, hoekpunten</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="535" />
      <source>Network used: total length |L| (CRS units)</source>
      <translation>Gebruikt netwerk: totale lengte |L| (CRS-eenheden)</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="536" />
      <source>CRS</source>
      <translation>CRS</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="548" />
      <source>{0}: largest and mean distance moved onto the network</source>
      <translation>{0}: grootste en gemiddelde verplaatsing naar het netwerk</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="553" />
      <source>no limit</source>
      <translation>geen limiet</translation>
    </message>
    <message>
      <location filename="../processing/network_inputs.py" line="554" />
      <source>Largest distance allowed ({0})</source>
      <translation>Grootste toegestane afstand ({0})</translation>
    </message>
    <message>
      <location filename="../processing/network_kfunction.py" line="32" />
      <source>{0}: the {1} correction is for points in a planar window; on a {2} choose Ang's correction (or None).</source>
      <translation>{0}: de correctie {1} is bedoeld voor punten in een vlak studiegebied; kies op een {2} de correctie van Ang (of Geen).</translation>
    </message>
    <message>
      <location filename="../processing/network_kfunction.py" line="36" />
      <source>{0}: Ang's correction is for points on a street network; give {1}, or choose Isotropic, Border or None for a planar window.</source>
      <translation>{0}: de correctie van Ang is bedoeld voor punten op een stratennetwerk; geef {1} op, of kies Isotroop, Rand of Geen voor een vlak studiegebied.</translation>
    </message>
    <message>
      <location filename="../processing/network_kfunction.py" line="52" />
      <source>{0} is not used on a network: the network is the domain.</source>
      <translation>{0} wordt op een netwerk niet gebruikt: het netwerk is het domein.</translation>
    </message>
    <message>
      <location filename="../processing/network_kfunction.py" line="102" />
      <source>K-function on a network (CONFIDENTIAL utility diagnostic)</source>
      <translation>K-functie op een netwerk (VERTROUWELIJKE bruikbaarheidsdiagnostiek)</translation>
    </message>
    <message>
      <location filename="../processing/network_synthesis.py" line="48" />
      <source>Optional line layer of streets. Given: the points are moved to their nearest location on it and the LGCP or Laplace synthesizer works on the network (Kim &amp; Lim, Section 4.2): the synthetic points lie exactly on its lines. The kernel method is not offered on a network. The network is public: it must not be derived from the confidential points. Same CRS as the points (or both transformed to WORK_CRS). Empty: the synthesizers work in the plane (WINDOW).</source>
      <translation>Optionele lijnlaag met straten. Opgegeven: de punten worden naar hun dichtstbijzijnde locatie erop verplaatst en de LGCP- of Laplace-synthese werkt op het netwerk (Kim &amp; Lim, Sectie 4.2): de synthetische punten liggen precies op de lijnen ervan. De kernelmethode wordt op een netwerk niet aangeboden. Het netwerk is openbaar: het mag niet uit de vertrouwelijke punten zijn afgeleid. Zelfde CRS als de punten (of beide getransformeerd naar WORK_CRS). Leeg: de synthesemethoden werken in het vlak (WINDOW).</translation>
    </message>
    <message>
      <location filename="../processing/network_synthesis.py" line="57" />
      <source>Piece length on the network</source>
      <translation>Lengte van de stukken op het netwerk</translation>
    </message>
    <message>
      <location filename="../processing/network_synthesis.py" line="58" />
      <source>Needed with NETWORK: the network is cut into pieces of at most this length, in the CRS units (Kim &amp; Lim use 50 m; 164 ft). Laplace: the pieces are the cells whose counts get noise (pieces shorter than 1/4 of it are merged with a neighbour; the sensitivity Δ = 1/|S_p| + 1/|S_q| comes from the two shortest cells, so a larger resolution means less noise). LGCP: the ends of the pieces are the knots of the field (at most 5,000); σ²/l is fixed by the privacy condition (the report gives it; output RATIO is σ/l at the drawn length scale l). No default: a street layer's units are not known in advance. A resolution at least as long as every line of the network is refused (nothing would be cut).</source>
      <translation>Nodig met NETWORK: het netwerk wordt opgedeeld in stukken van ten hoogste deze lengte, in de CRS-eenheden (Kim &amp; Lim gebruiken 50 m; 164 ft). Laplace: de stukken zijn de cellen waarvan de aantallen ruis krijgen (stukken korter dan 1/4 daarvan worden samengevoegd met een buurstuk; de gevoeligheid Δ = 1/|S_p| + 1/|S_q| komt van de twee kortste cellen, dus een grotere resolutie betekent minder ruis). LGCP: de einden van de stukken zijn de knopen van het veld (ten hoogste 5.000); σ²/l wordt door de privacyvoorwaarde vastgelegd (het rapport vermeldt de waarde; uitvoer RATIO is σ/l bij de getrokken lengteschaal l). Geen standaardwaarde: de eenheden van een stratenlaag zijn niet vooraf bekend. Een resolutie die minstens zo lang is als elke lijn van het netwerk, wordt geweigerd (er zou niets worden opgedeeld).</translation>
    </message>
    <message>
      <location filename="../processing/network_synthesis.py" line="77" />
      <source>{0}: the kernel synthesizer works in the plane only (its Gaussian kernel and Theorem 3.6 have no network form here); on a {1} choose the LGCP or the Laplace synthesizer, or leave {1} empty.</source>
      <translation>{0}: de kernelsynthese werkt alleen in het vlak (de Gaussische kernel en Stelling 3.6 hebben hier geen vorm voor netwerken); kies op een {1} de LGCP- of de Laplace-synthese, of laat {1} leeg.</translation>
    </message>
    <message>
      <location filename="../processing/network_synthesis.py" line="83" />
      <source>{0}: give the longest piece the network is cut into, in the units of the CRS of {1} (Kim &amp; Lim use 50 m).</source>
      <translation>{0}: geef de lengte op van het langste stuk waarin het netwerk wordt opgedeeld, in de eenheden van het CRS van {1} (Kim &amp; Lim gebruiken 50 m).</translation>
    </message>
    <message>
      <location filename="../processing/network_synthesis.py" line="96" />
      <source>{0} is not used on a network (the network and {1} set the domain and its pieces).</source>
      <translation>{0} wordt op een netwerk niet gebruikt (het netwerk en {1} bepalen het domein en de stukken ervan).</translation>
    </message>
    <message>
      <location filename="../processing/network_synthesis.py" line="103" />
      <source>{0} is not used on a network: the knots are the ends of the pieces.</source>
      <translation>{0} wordt op een netwerk niet gebruikt: de knopen zijn de einden van de stukken.</translation>
    </message>
    <message>
      <location filename="../processing/network_synthesis.py" line="159" />
      <source>network parts chosen by the points</source>
      <translation>netwerkdelen die door de punten zijn gekozen</translation>
    </message>
    <message>
      <location filename="../processing/network_synthesis.py" line="204" />
      <source>Differentially private synthetic points on a street network</source>
      <translation>Synthetische punten met differentiële privacy op een stratennetwerk</translation>
    </message>
    <message>
      <location filename="../processing/network_synthesis.py" line="210" />
      <source>&lt;p&gt;&lt;b&gt;On a street network&lt;/b&gt; (NETWORK, Kim &amp;amp; Lim Section 4.2): the points are moved to their nearest location on the network, which is cut into pieces of at most RESOLUTION, and the synthetic points are drawn on its lines. &lt;i&gt;Laplace&lt;/i&gt;: the pieces are the cells, with lengths for areas, Δ = max&lt;sub&gt;p≠q&lt;/sub&gt; 1/|S&lt;sub&gt;p&lt;/sub&gt;| + 1/|S&lt;sub&gt;q&lt;/sub&gt;|; pure ε-DP for one point moved any distance, as in the plane (Theorem 3.10 needs only that the cells partition the domain). &lt;i&gt;LGCP&lt;/i&gt;: the log intensity is linear along each piece between its end knots, with an exponential correlation in the resistance metric (Appendix E.2); σ²/l (not σ/l: only that ratio bounds the privacy condition for every length scale in this metric) is fixed by Theorem 3.8 summed over the pieces within α along the network. The prior is valid on every network (proven); the guarantee is nominal, not proven, for the reasons given above for the plane. The kernel method is not offered on a network. The network is public: it must not be derived from the confidential points.&lt;/p&gt;</source>
      <translation>&lt;p&gt;&lt;b&gt;Op een stratennetwerk&lt;/b&gt; (NETWORK, Kim &amp;amp; Lim Sectie 4.2): de punten worden naar hun dichtstbijzijnde locatie op het netwerk verplaatst, dat wordt opgedeeld in stukken van ten hoogste RESOLUTION, en de synthetische punten worden op de lijnen ervan getrokken. &lt;i&gt;Laplace&lt;/i&gt;: de stukken zijn de cellen, met lengtes in plaats van oppervlakten, Δ = max&lt;sub&gt;p≠q&lt;/sub&gt; 1/|S&lt;sub&gt;p&lt;/sub&gt;| + 1/|S&lt;sub&gt;q&lt;/sub&gt;|; zuivere ε-DP voor één punt dat over een willekeurige afstand wordt verplaatst, zoals in het vlak (Stelling 3.10 vereist alleen dat de cellen een partitie van het domein vormen). &lt;i&gt;LGCP&lt;/i&gt;: de log-intensiteit is lineair langs elk stuk tussen de eindknopen ervan, met een exponentiële correlatie in de weerstandsmetriek (Appendix E.2); σ²/l (niet σ/l: alleen die verhouding begrenst de privacyvoorwaarde voor elke lengteschaal in deze metriek) wordt vastgelegd door Stelling 3.8, gesommeerd over de stukken binnen α langs het netwerk. De a-prioriverdeling is geldig op elk netwerk (bewezen); de garantie is nominaal, niet bewezen, om de redenen die hierboven voor het vlak zijn gegeven. De kernelmethode wordt op een netwerk niet aangeboden. Het netwerk is openbaar: het mag niet uit de vertrouwelijke punten zijn afgeleid.&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../processing/parameters.py" line="70" />
      <source>from {0} to {1}</source>
      <translation>van {0} tot en met {1}</translation>
    </message>
    <message>
      <location filename="../processing/parameters.py" line="72" />
      <source>of at least {0}</source>
      <translation>van ten minste {0}</translation>
    </message>
    <message>
      <location filename="../processing/parameters.py" line="74" />
      <source>of at most {0}</source>
      <translation>van ten hoogste {0}</translation>
    </message>
    <message>
      <location filename="../processing/parameters.py" line="75" />
      <source>a number</source>
      <translation>een getal</translation>
    </message>
    <message>
      <location filename="../processing/parameters.py" line="75" />
      <source>a whole number</source>
      <translation>een geheel getal</translation>
    </message>
    <message>
      <location filename="../processing/parameters.py" line="76" />
      <source>{0}: '{1}' is not allowed; give {2}.</source>
      <translation>{0}: '{1}' is niet toegestaan; geef {2}.</translation>
    </message>
    <message>
      <location filename="../processing/parameters.py" line="100" />
      <source>{0}: '{1}' is not a number.</source>
      <translation>{0}: '{1}' is geen getal.</translation>
    </message>
    <message>
      <location filename="../processing/parameters.py" line="107" />
      <source>Separate the numbers with commas ('0.5, 1, 2'), or with semicolons if you write decimals with a comma ('0,5; 1; 2').</source>
      <translation>Scheid de getallen met komma's ('0.5, 1, 2'), of met puntkomma's als u decimalen met een komma schrijft ('0,5; 1; 2').</translation>
    </message>
    <message>
      <location filename="../processing/parameters.py" line="115" />
      <source>Seed of the random generator: a whole number from 0 to {0}. Leave empty for a real release: the noise then comes from the operating system's entropy. A seed makes the output reproducible, which is for testing only: anyone who knows the seed and the method can recompute the noise and remove it, so the outputs of a seeded run are labelled NOT PRIVATE: in the layer names, in the report title and inside the files that can hold a label (a GeoPackage, a GeoJSON file); other formats (a Shapefile, a CSV, FlatGeobuf) cannot, and the log then warns, naming the output.</source>
      <translation>Seed van de toevalsgenerator: een geheel getal van 0 tot en met {0}. Laat leeg voor een echte publicatie: de ruis komt dan uit de entropie van het besturingssysteem. Een seed maakt de uitvoer reproduceerbaar, en dat is alleen bedoeld voor tests: iedereen die de seed en de methode kent, kan de ruis herberekenen en verwijderen, dus de uitvoer van een run met seed wordt gemarkeerd als NIET PRIVÉ: in de laagnamen, in de titel van het rapport en in de bestanden die een label kunnen bevatten (een GeoPackage, een GeoJSON-bestand); andere formaten (een Shapefile, een CSV, FlatGeobuf) kunnen dat niet, en het log waarschuwt dan, met de naam van de uitvoer.</translation>
    </message>
    <message>
      <location filename="../processing/parameters.py" line="172" />
      <source>{0}: '{1}' is not allowed; give a whole number from 0 to {2}, or leave it empty for a real release.</source>
      <translation>{0}: '{1}' is niet toegestaan; geef een geheel getal van 0 tot en met {2}, of laat het leeg voor een echte publicatie.</translation>
    </message>
    <message>
      <location filename="../processing/parameters.py" line="197" />
      <source>fixed {0}</source>
      <translation>vaste {0}</translation>
    </message>
    <message>
      <location filename="../processing/parameters.py" line="199" />
      <source>{0} = {1}: the outputs are NOT PRIVATE, and their files, layer names and report say so. {0} makes the noise reproducible: anyone with the seed can subtract it (or redraw a synthesis from the same model). Leave {0} empty for a real release.</source>
      <translation>{0} = {1}: de uitvoer is NIET PRIVÉ, en de bestanden, laagnamen en het rapport vermelden dat. {0} maakt de ruis reproduceerbaar: iedereen met de seed kan haar aftrekken (of een synthese opnieuw trekken uit hetzelfde model). Laat {0} leeg voor een echte publicatie.</translation>
    </message>
    <message>
      <location filename="../processing/parameters.py" line="207" />
      <source>{0} = {1}: the output is reproducible. Do not publish it; leave the seed empty for a real release.</source>
      <translation>{0} = {1}: de uitvoer is reproduceerbaar. Publiceer deze niet; laat de seed leeg voor een echte publicatie.</translation>
    </message>
    <message>
      <location filename="../processing/provider.py" line="34" />
      <source>Spatial Privacy</source>
      <translation>Spatial Privacy</translation>
    </message>
    <message>
      <location filename="../processing/provider.py" line="37" />
      <source>Spatial Privacy: private maps and synthetic points</source>
      <translation>Spatial Privacy: privacybeschermende kaarten en synthetische punten</translation>
    </message>
    <message>
      <location filename="../processing/raster.py" line="26" />
      <source>{0}: GDAL cannot create 64-bit float '{1}' rasters; use a GeoTIFF (.tif).</source>
      <translation>{0}: GDAL kan geen 64-bits float-rasters van het type '{1}' maken; gebruik een GeoTIFF (.tif).</translation>
    </message>
    <message>
      <location filename="../processing/raster.py" line="52" />
      <source>{0}: GDAL cannot write '{1}' files.</source>
      <translation>{0}: GDAL kan geen '{1}'-bestanden schrijven.</translation>
    </message>
    <message>
      <location filename="../processing/raster.py" line="61" />
      <source>{0}: cannot create {1}.</source>
      <translation>{0}: kan {1} niet aanmaken.</translation>
    </message>
    <message>
      <location filename="../processing/raster.py" line="83" />
      <source>{0}: writing {1} failed.</source>
      <translation>{0}: het schrijven van {1} is mislukt.</translation>
    </message>
    <message>
      <location filename="../processing/raster.py" line="90" />
      <source>{0}: writing {1} failed ({2}).</source>
      <translation>{0}: het schrijven van {1} is mislukt ({2}).</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="19" />
      <source>Epsilon (ε) of one synthetic data set</source>
      <translation>Epsilon (ε) van één synthetische dataset</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="20" />
      <source>Epsilon of the output (L·ε)</source>
      <translation>Epsilon van de uitvoer (L·ε)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="22" />
      <source>δ</source>
      <translation>δ</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="23" />
      <source>0 for the distribution sampled; not counted: the double-precision draw gives each probability to within 1.1e-16 (2^-53), a δ of that order per split of the sampler's tree</source>
      <translation>0 voor de bemonsterde verdeling; niet meegeteld: de trekking in dubbele precisie geeft elke kans tot op 1.1e-16 (2^-53) nauwkeurig, een δ van die orde per splitsing van de boom van de sampler</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="28" />
      <source>Mechanism</source>
      <translation>Mechanisme</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="28" />
      <source>truncated (Quick 2021)</source>
      <translation>met afkapping (Quick 2021)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="28" />
      <source>untruncated (Quick 2019)</source>
      <translation>zonder afkapping (Quick 2019)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="29" />
      <source>Alpha</source>
      <translation>Alfa</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="30" />
      <source>c</source>
      <translation>c</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="31" />
      <source>Groups</source>
      <translation>Groepen</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="32" />
      <source>Public total</source>
      <translation>Openbaar totaal</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="34" />
      <source>Certified ε of the priors (two largest loss terms)</source>
      <translation>Gecertificeerde ε van de a-prioriverdelingen (twee grootste verliestermen)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="35" />
      <source>none (operating-system entropy)</source>
      <translation>geen (entropie van het besturingssysteem)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="36" />
      <source>Fields</source>
      <translation>Velden</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="39" />
      <source>Median a</source>
      <translation>Mediaan van a</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="40" />
      <source>Largest a</source>
      <translation>Grootste a</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="41" />
      <source>Smallest a</source>
      <translation>Kleinste a</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="42" />
      <source>Median weight of the prior, a / (a + E)</source>
      <translation>Mediaan van het gewicht van de a-prioriverdeling, a / (a + E)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="45" />
      <source>True counts outside their bounds [L, U]</source>
      <translation>Ware aantallen buiten hun grenzen [L, U]</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="46" />
      <source>Correlation of true and mean synthetic rates</source>
      <translation>Correlatie tussen ware en gemiddelde synthetische cijfers</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="47" />
      <source>Mean absolute difference of counts (mean synthetic − true)</source>
      <translation>Gemiddeld absoluut verschil van de aantallen (gemiddeld synthetisch − waar)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="52" />
      <source>ε-differential privacy (δ = 0 for the distribution sampled; its double-precision draw adds a δ of the order of 1e-16 per split of the sampler's tree, not counted) for each synthetic data set: moving one event from one group to another (the total unchanged) changes the probability of any output by at most a factor e^ε. The L sets together (and their mean) are (L·ε)-differentially private. The total is published exactly. Priors calibrated with the pairwise bound (each of the two groups involved contributes at most ε/2); they and the populations must not be derived from the confidential counts.</source>
      <translation>ε-differentiële privacy (δ = 0 voor de bemonsterde verdeling; de trekking in dubbele precisie voegt een δ in de orde van 1e-16 per splitsing van de boom van de sampler toe, niet meegeteld) voor elke synthetische dataset: één gebeurtenis van de ene groep naar een andere verplaatsen (bij een ongewijzigd totaal) verandert de kans op elke uitvoer met ten hoogste een factor e^ε. De L datasets samen (en hun gemiddelde) hebben (L·ε)-differentiële privacy. Het totaal wordt exact gepubliceerd. A-prioriverdelingen gekalibreerd met de paarsgewijze grens (elk van de twee betrokken groepen draagt ten hoogste ε/2 bij); zij en de populaties mogen niet uit de vertrouwelijke aantallen zijn afgeleid.</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="63" />
      <source>Prior informativeness</source>
      <translation>Informatiegehalte van de a-prioriverdelingen</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="64" />
      <source>CONFIDENTIAL: comparison with the true counts (do not publish)</source>
      <translation>VERTROUWELIJK: vergelijking met de ware aantallen (niet publiceren)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_counts.py" line="65" />
      <source>CONFIDENTIAL: true versus synthetic rates</source>
      <translation>VERTROUWELIJK: ware versus synthetische cijfers</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="17" />
      <source>every α</source>
      <translation>elke α</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="22" />
      <source>Alpha (α, CRS units)</source>
      <translation>Alfa (α, CRS-eenheden)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="23" />
      <source>Window area (squared CRS units)</source>
      <translation>Oppervlakte van het studiegebied (vierkante CRS-eenheden)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="24" />
      <source>Window diameter B (CRS units)</source>
      <translation>Diameter B van het studiegebied (CRS-eenheden)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="30" />
      <source>fixed by the user (its value is not shown: with it anyone can recompute the noise; NOT for release)</source>
      <translation>vastgezet door de gebruiker (de waarde wordt niet getoond: daarmee kan iedereen de ruis herberekenen; NIET voor publicatie)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="36" />
      <source>Original points n (public under this guarantee)</source>
      <translation>Oorspronkelijke punten n (openbaar onder deze garantie)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="37" />
      <source>Two data sets are neighbours when one point is moved by at most α; the number of points n is the same in both, so n is not protected by this guarantee.</source>
      <translation>Twee datasets zijn naburig als één punt over ten hoogste α wordt verplaatst; het aantal punten n is in beide gelijk, dus n wordt door deze garantie niet beschermd.</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="43" />
      <source>({0:g}, {1:g})-differential privacy under the α-neighbourhood with α = {2:g} (Kim &amp; Lim, Theorem 3.6): for any synthetic pattern, its probability changes by at most a factor e^ε between neighbouring data sets, except with probability δ. {3} The number of points n = {4} is printed in this report and is public under this guarantee.</source>
      <translation>({0:g}, {1:g})-differentiële privacy onder de α-naburigheid met α = {2:g} (Kim &amp; Lim, Stelling 3.6): voor elk synthetisch patroon verandert de kans erop tussen naburige datasets met ten hoogste een factor e^ε, behalve met kans δ. {3} Het aantal punten n = {4} staat in dit rapport en is onder deze garantie openbaar.</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="50" />
      <source>Bandwidth used h (CRS units)</source>
      <translation>Gebruikte bandbreedte h (CRS-eenheden)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="51" />
      <source>Smallest private bandwidth (CRS units)</source>
      <translation>Kleinste privacyveilige bandbreedte (CRS-eenheden)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="52" />
      <source>k: 1 − δ quantile of Poisson(n)</source>
      <translation>k: 1 − δ-kwantiel van Poisson(n)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="53" />
      <source>B: window diameter</source>
      <translation>B: diameter van het studiegebied</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="54" />
      <source>Upper bound of r_α(h) at the smallest bandwidth</source>
      <translation>Bovengrens van r_α(h) bij de kleinste bandbreedte</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="55" />
      <source>(2αB + α²)/(2h²) + r_α(h) at the bandwidth used</source>
      <translation>(2αB + α²)/(2h²) + r_α(h) bij de gebruikte bandbreedte</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="56" />
      <source>ε / k</source>
      <translation>ε / k</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="58" />
      <source>Grid the coordinates are rounded to (h/1024, CRS units)</source>
      <translation>Raster waarop de coördinaten zijn afgerond (h/1024, CRS-eenheden)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="65" />
      <source>({0:g}, {1:g})-differential privacy under the α-neighbourhood with α = {2:g} (Kim &amp; Lim, Theorem 3.8): for any synthetic pattern, its probability changes by at most a factor e^ε between neighbouring data sets, except with probability δ. {3} The number of points n = {4} is printed in this report and is public under this guarantee. The theorem is stated for one exact draw from the posterior, and its proof has gaps even there (a bound that must hold for every β; the bad event's probability taken under the prior); this tool draws from a fast (Laplace) approximation of the posterior. The stated (ε, δ) is therefore nominal, not proven.</source>
      <translation>({0:g}, {1:g})-differentiële privacy onder de α-naburigheid met α = {2:g} (Kim &amp; Lim, Stelling 3.8): voor elk synthetisch patroon verandert de kans erop tussen naburige datasets met ten hoogste een factor e^ε, behalve met kans δ. {3} Het aantal punten n = {4} staat in dit rapport en is onder deze garantie openbaar. De stelling is geformuleerd voor één exacte trekking uit de a-posterioriverdeling, en zelfs daar heeft het bewijs lacunes (een grens die voor elke β moet gelden; de kans op de ongunstige gebeurtenis berekend onder de a-prioriverdeling); dit hulpmiddel trekt uit een snelle (Laplace-)benadering van de a-posterioriverdeling. De opgegeven (ε, δ) is daarom nominaal, niet bewezen.</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="75" />
      <source>Ratio R = σ/l</source>
      <translation>Verhouding R = σ/l</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="76" />
      <source>Triangle pairs within α</source>
      <translation>Driehoeksparen binnen α</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="77" />
      <source>Sum over pairs of the largest squared vertex distance</source>
      <translation>Som over de paren van de grootste gekwadrateerde afstand tussen hoekpunten</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="79" />
      <source>Vertex pairs of the union bound that also covers points in one triangle, and their Σd²</source>
      <translation>Hoekpuntparen van de verenigingsgrens die ook punten in één driehoek dekt, en hun Σd²</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="82" />
      <source>Knots per dimension</source>
      <translation>Knopen per dimensie</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="83" />
      <source>Drawn length scale l (CRS units)</source>
      <translation>Getrokken lengteschaal l (CRS-eenheden)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="84" />
      <source>Drawn σ = R l</source>
      <translation>Getrokken σ = R l</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="91" />
      <source>{0:.6g}-differential privacy when one point is moved any distance (Kim &amp; Lim, Theorem 3.10, for every α; the noisy total costs nothing there because n does not change), and {1:.6g}-differential privacy when one point is added or removed ({2:.6g} for the noisy total plus {3:.6g} × {4:.6g} / {5:.6g} for the cells). δ = 0 for the distribution sampled (numpy's double-precision draws add a δ of the order of e^(ε−36), below 1e-15 at ε = 1, not counted). {6} Only the add-or-remove guarantee covers n, so n is not printed in this report.</source>
      <translation>{0:.6g}-differentiële privacy wanneer één punt over een willekeurige afstand wordt verplaatst (Kim &amp; Lim, Stelling 3.10, voor elke α; het totaal met ruis kost daar niets, omdat n niet verandert), en {1:.6g}-differentiële privacy wanneer één punt wordt toegevoegd of verwijderd ({2:.6g} voor het totaal met ruis plus {3:.6g} × {4:.6g} / {5:.6g} voor de cellen). δ = 0 voor de bemonsterde verdeling (de trekkingen van numpy in dubbele precisie voegen een δ in de orde van e^(ε−36) toe, onder 1e-15 bij ε = 1, niet meegeteld). {6} Alleen de garantie voor toevoegen of verwijderen dekt n, dus n staat niet in dit rapport.</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="108" />
      <source>{0:.6g}-differential privacy when one point is moved any distance (Kim &amp; Lim, Theorem 3.10, for every α), and {1:.6g}-differential privacy when one point is added or removed ({0:.6g} × {2:.6g} / {3:.6g}). δ = 0 for the distribution sampled (numpy's double-precision draws add a δ of the order of e^(ε−36), below 1e-15 at ε = 1, not counted). {4} Only the add-or-remove guarantee covers n, so n is not printed in this report.</source>
      <translation>{0:.6g}-differentiële privacy wanneer één punt over een willekeurige afstand wordt verplaatst (Kim &amp; Lim, Stelling 3.10, voor elke α), en {1:.6g}-differentiële privacy wanneer één punt wordt toegevoegd of verwijderd ({0:.6g} × {2:.6g} / {3:.6g}). δ = 0 voor de bemonsterde verdeling (de trekkingen van numpy in dubbele precisie voegen een δ in de orde van e^(ε−36) toe, onder 1e-15 bij ε = 1, niet meegeteld). {4} Alleen de garantie voor toevoegen of verwijderen dekt n, dus n staat niet in dit rapport.</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="116" />
      <source>Cell size (CRS units)</source>
      <translation>Celgrootte (CRS-eenheden)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="117" />
      <source>Cells (after merging slivers)</source>
      <translation>Cellen (na samenvoegen van snippers)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="118" />
      <source>Slivers merged into a neighbour</source>
      <translation>Met een buurcel samengevoegde snippers</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="119" />
      <source>Sensitivity Δ = 1/|S_p| + 1/|S_q| (per squared unit)</source>
      <translation>Gevoeligheid Δ = 1/|S_p| + 1/|S_q| (per vierkante eenheid)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="120" />
      <source>Laplace noise scale Δ / ε_cells (points per squared unit)</source>
      <translation>Schaal van de Laplace-ruis Δ / ε_cells (punten per vierkante eenheid)</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="121" />
      <source>ε for the cells</source>
      <translation>ε voor de cellen</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="122" />
      <source>Share of ε for the noisy total</source>
      <translation>Deel van ε voor het totaal met ruis</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="123" />
      <source>ε when a point is added or removed</source>
      <translation>ε bij het toevoegen of verwijderen van een punt</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="126" />
      <source>Noisy total</source>
      <translation>Totaal met ruis</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="127" />
      <source>Note</source>
      <translation>Opmerking</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="130" />
      <source>Caveat: no WINDOW was given, so the window is the confidential points' bounding box enlarged by 5%. Its extent, and the window area, diameter and sizes derived from it in this report and in the map, follow the extreme points and are NOT covered by this guarantee. Give a public WINDOW for a release.</source>
      <translation>Let op: er is geen WINDOW opgegeven, dus het venster is de omhullende rechthoek van de vertrouwelijke punten, vergroot met 5%. De omvang ervan, en de oppervlakte, diameter en maten van het venster die daaruit volgen in dit rapport en op de kaart, volgen de uiterste punten en vallen NIET onder deze garantie. Geef een openbaar WINDOW op voor een publicatie.</translation>
    </message>
    <message>
      <location filename="../processing/reports/dp_points.py" line="139" />
      <source>Calibration</source>
      <translation>Kalibratie</translation>
    </message>
    <message>
      <location filename="../processing/reports/kfunction.py" line="20" />
      <source>Input points</source>
      <translation>Invoerpunten</translation>
    </message>
    <message>
      <location filename="../processing/reports/kfunction.py" line="22" />
      <source>Window area</source>
      <translation>Oppervlakte van het studiegebied</translation>
    </message>
    <message>
      <location filename="../processing/reports/kfunction.py" line="26" />
      <source>Estimator</source>
      <translation>Schatter</translation>
    </message>
    <message>
      <location filename="../processing/reports/kfunction.py" line="27" />
      <source>inhomogeneous (Kim &amp; Lim eq. 14), intensity {0}</source>
      <translation>inhomogeen (Kim &amp; Lim vgl. 14), intensiteit {0}</translation>
    </message>
    <message>
      <location filename="../processing/reports/kfunction.py" line="29" />
      <source>homogeneous (spatstat Kest)</source>
      <translation>homogeen (spatstat Kest)</translation>
    </message>
    <message>
      <location filename="../processing/reports/kfunction.py" line="31" />
      <source>{0} from {1:g} to {2:g}</source>
      <translation>{0} van {1:g} tot {2:g}</translation>
    </message>
    <message>
      <location filename="../processing/reports/kfunction.py" line="32" />
      <source>Points repeating another point's location</source>
      <translation>Punten die de locatie van een ander punt herhalen</translation>
    </message>
    <message>
      <location filename="../processing/reports/kfunction.py" line="35" />
      <source>MISE</source>
      <translation>MISE</translation>
    </message>
    <message>
      <location filename="../processing/reports/kfunction.py" line="40" />
      <source>The K-function of the input is derived from the confidential points. It is a utility diagnostic for the data steward: keep this page and the table internal.</source>
      <translation>De K-functie van de invoer is afgeleid van de vertrouwelijke punten. Ze is bruikbaarheidsdiagnostiek voor de databeheerder: houd deze pagina en de tabel intern.</translation>
    </message>
    <message>
      <location filename="../processing/reports/kfunction.py" line="45" />
      <source>K-function and L-function</source>
      <translation>K-functie en L-functie</translation>
    </message>
    <message>
      <location filename="../processing/reports/kfunction.py" line="54" />
      <source>None (no ε or δ): this tool adds no noise and publishes nothing. A synthetic layer is as private as the tool that made it.</source>
      <translation>Geen (geen ε of δ): dit hulpmiddel voegt geen ruis toe en publiceert niets. Een synthetische laag is zo privé als het hulpmiddel dat haar maakte.</translation>
    </message>
    <message>
      <location filename="../processing/reports/kfunction.py" line="68" />
      <source>Poisson: π r²</source>
      <translation>Poisson: π r²</translation>
    </message>
    <message>
      <location filename="../processing/reports/kfunction.py" line="69" />
      <source>Poisson: 0</source>
      <translation>Poisson: 0</translation>
    </message>
    <message>
      <location filename="../processing/reports/kfunction.py" line="70" />
      <source>input</source>
      <translation>invoer</translation>
    </message>
    <message>
      <location filename="../processing/reports/kfunction.py" line="72" />
      <source>synthetic</source>
      <translation>synthetisch</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="23" />
      <source>The hyperparameter chain is stuck: it accepted {0:.2%} of its moves (fewer than {1:.0%}), so the range and standard deviation repeat a few values and the fit cannot be trusted, whatever R-hat and the effective sample sizes say. Give a {2} nearer the scale of the pattern (empty: 1/5 of the window's larger side), or use the fast method.</source>
      <translation>De keten van de hyperparameters zit vast: ze accepteerde {0:.2%} van haar stappen (minder dan {1:.0%}), dus het bereik en de standaardafwijking herhalen enkele waarden en de fit is niet betrouwbaar, wat R-hat en de effectieve steekproefgroottes ook zeggen. Geef een {2} dichter bij de schaal van het patroon (leeg: 1/5 van de langste zijde van het venster), of gebruik de snelle methode.</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="37" />
      <source>The MCMC chains have not converged ({0}). BDA3 asks for R-hat below {1:g} and at least {2:.0f} effective draws of every parameter before the draws are used. Ask for more {3}, or give a {4} nearer the scale of the pattern (empty: 1/5 of the window's larger side).</source>
      <translation>De MCMC-ketens zijn niet geconvergeerd ({0}). BDA3 vraagt een R-hat onder {1:g} en ten minste {2:.0f} effectieve trekkingen van elke parameter voordat de trekkingen worden gebruikt. Vraag meer {3}, of geef een {4} dichter bij de schaal van het patroon (leeg: 1/5 van de langste zijde van het venster).</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="49" />
      <source>edge midpoints</source>
      <translation>ribbemiddens</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="50" />
      <source>dual mesh</source>
      <translation>duale mesh</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="51" />
      <source>degree 3 (nodes, midpoints and centroids)</source>
      <translation>graad 3 (knopen, ribbemiddens en zwaartepunten)</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="63" />
      <source>mean | sd | 95% interval</source>
      <translation>gemiddelde | sd | 95%-interval</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="63" />
      <source>parameter</source>
      <translation>parameter</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="65" />
      <source>Points</source>
      <translation>Punten</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="70" />
      <source>Integration rule</source>
      <translation>Integratieregel</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="71" />
      <source>Hyperparameter grid points</source>
      <translation>Roosterpunten van de hyperparameters</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="72" />
      <source>Points at a location another point already takes</source>
      <translation>Punten op een locatie die al door een ander punt wordt ingenomen</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="73" />
      <source>Log pseudo-marginal likelihood (sum of log CPO)</source>
      <translation>Log-pseudo-marginale aannemelijkheid (som van log CPO)</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="74" />
      <source>Points whose CPO rests on fewer than 20 effective draws</source>
      <translation>Punten waarvan de CPO op minder dan 20 effectieve trekkingen berust</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="78" />
      <source>Grid points left out as failed fits</source>
      <translation>Roosterpunten weggelaten als mislukte fits</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="80" />
      <source>Warning</source>
      <translation>Waarschuwing</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="80" />
      <source>the hyperparameter grid was cut short at its limit</source>
      <translation>het rooster van de hyperparameters werd bij zijn limiet afgebroken</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="84" />
      <source>This fit is derived from the confidential points. Keep the report, the model file and the intensity map internal.</source>
      <translation>Deze schatting is afgeleid van de vertrouwelijke punten. Houd het rapport, het modelbestand en de intensiteitskaart intern.</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="89" />
      <source>Posterior summary</source>
      <translation>Samenvatting van de a-posterioriverdeling</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="93" />
      <source>A fixed seed was used (reproducible run).</source>
      <translation>Er is een vaste seed gebruikt (reproduceerbare uitvoering).</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="104" />
      <source>Draws with spikes at mesh nodes the integration misses</source>
      <translation>Trekkingen met pieken op knopen van de mesh die de integratie mist</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="106" />
      <source>Accepted hyperparameter moves</source>
      <translation>Geaccepteerde stappen van de hyperparameters</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="107" />
      <source>MCMC convergence</source>
      <translation>Convergentie van de MCMC</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="109" />
      <source>Warning: the MCMC has not converged</source>
      <translation>Waarschuwing: de MCMC is niet geconvergeerd</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="110" />
      <source>Trace plots</source>
      <translation>Traceplots</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_fit.py" line="112" />
      <source>Posterior mean intensity</source>
      <translation>A-posteriorigemiddelde van de intensiteit</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_synthesis.py" line="14" />
      <source>Posterior mean of κ² (1/length²)</source>
      <translation>A-posteriorigemiddelde van κ² (1/lengte²)</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_synthesis.py" line="15" />
      <source>Posterior mean of ξ²</source>
      <translation>A-posteriorigemiddelde van ξ²</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_synthesis.py" line="18" />
      <source>Field variance at those means</source>
      <translation>Veldvariantie bij die gemiddelden</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_synthesis.py" line="31" />
      <source>{0} release(s) | max risk mean {1:.4g}, range {2:.4g}-{3:.4g} | mean pMSE {4:.4g}</source>
      <translation>{0} publicatie(s) | max. risico gemiddeld {1:.4g}, bereik {2:.4g}-{3:.4g} | gemiddelde pMSE {4:.4g}</translation>
    </message>
    <message>
      <location filename="../processing/reports/lgcp_synthesis.py" line="35" />
      <source>{0} below the baseline (by chance: see the help)</source>
      <translation>{0} onder het basisniveau (door toeval: zie de help)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="15" />
      <source>n/a</source>
      <translation>n.v.t.</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="27" />
      <source>Type S risk (median over the sets)</source>
      <translation>Type S-risico (mediaan over de datasets)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="28" />
      <source>Type A risk (median over the sets)</source>
      <translation>Type A-risico (mediaan over de datasets)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="45" />
      <source>{0}: largest median</source>
      <translation>{0}: grootste mediaan</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="46" />
      <source>{0}: median of the medians</source>
      <translation>{0}: mediaan van de medianen</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="48" />
      <source>{0}: records with median above {1:g}</source>
      <translation>{0}: records met een mediaan boven {1:g}</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="51" />
      <source>{0}: largest 95% quantile</source>
      <translation>{0}: grootste 95%-kwantiel</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="54" />
      <source>{0}: records with no set to estimate it (NaN)</source>
      <translation>{0}: records zonder dataset om het te schatten (NaN)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="55" />
      <source>{0}: records estimated from fewer than all {1} sets</source>
      <translation>{0}: records geschat uit minder dan alle {1} datasets</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="74" />
      <source>synthetic mean</source>
      <translation>synthetisch gemiddelde</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="95" />
      <source>{0} confidential records; {1}</source>
      <translation>{0} vertrouwelijke records; {1}</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="98" />
      <source>{0} confidential records, {1} sets; outside the band at {2} of {3} radii</source>
      <translation>{0} vertrouwelijke records, {1} datasets; buiten de band bij {2} van {3} stralen</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="102" />
      <source> (r from {0:g} to {1:g})</source>
      <translation> (r van {0:g} tot {1:g})</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="115" />
      <source>UNSTABLE: ν_f = {0} &lt; {1}: few synthetic sets for this coefficient, use more SETS; adjusted interval (T* = (n_syn / n) ū, normal reference, Reiter 2002) [{2}, {3}], overlap J = {4}</source>
      <translation>INSTABIEL: ν_f = {0} &lt; {1}: weinig synthetische datasets voor deze coëfficiënt, gebruik meer SETS; aangepast interval (T* = (n_syn / n) ū, normale referentieverdeling, Reiter 2002) [{2}, {3}], overlap J = {4}</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="134" />
      <source>confidential {0} [{1}, {2}]; synthetic {3} [{4}, {5}] from {6} sets; overlap J = {7}</source>
      <translation>vertrouwelijk {0} [{1}, {2}]; synthetisch {3} [{4}, {5}] uit {6} datasets; overlap J = {7}</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="160" />
      <source>SETS: the combined interval of {0} coefficients is unstable (ν_f &lt; {1}: the combining rules' t reference has too few degrees of freedom, so the interval is far too wide): {2}. Use more synthetic sets; the report gives the adjusted interval (n_syn / n) ū beside each.</source>
      <translation>SETS: het gecombineerde interval van {0} coëfficiënten is instabiel (ν_f &lt; {1}: de t-referentieverdeling van de combinatieregels heeft te weinig vrijheidsgraden, dus het interval is veel te breed): {2}. Gebruik meer synthetische datasets; het rapport geeft naast elk ervan het aangepaste interval (n_syn / n) ū.</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="180" />
      <source>confidential</source>
      <translation>vertrouwelijk</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="184" />
      <source>synthetic (combined)</source>
      <translation>synthetisch (gecombineerd)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="202" />
      <source>synthetic, adjusted (unstable: use more SETS)</source>
      <translation>synthetisch, aangepast (instabiel: gebruik meer SETS)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="214" />
      <source>difference from the confidential estimate (its standard errors)</source>
      <translation>verschil met de vertrouwelijke schatting (in haar standaardfouten)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="223" />
      <source>None (no ε or δ): this tool measures the inferential disclosure risk of fully synthetic records empirically and publishes nothing. The synthetic sets are as private as these risks say.</source>
      <translation>Geen (geen ε of δ): dit hulpmiddel meet het inferentiële onthullingsrisico van volledig synthetische records empirisch en publiceert niets. De synthetische datasets zijn zo privacyveilig als deze risico's aangeven.</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="233" />
      <source>This page is computed from the confidential records: the L-functions and regression estimates of the confidential data and the risk of each record. Keep it with the steward's files.</source>
      <translation>Deze pagina is berekend uit de vertrouwelijke records: de L-functies en regressieschattingen van de vertrouwelijke gegevens en het risico van elk record. Bewaar haar bij de bestanden van de databeheerder.</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="244" />
      <source>All records</source>
      <translation>Alle records</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="246" />
      <source>Confidential records</source>
      <translation>Vertrouwelijke records</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="247" />
      <source>Combinations of categories</source>
      <translation>Combinaties van categorieën</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="249" />
      <source>Spatial tolerance ε_s (distance ≤ ε_s)</source>
      <translation>Ruimtelijke tolerantie ε_s (afstand ≤ ε_s)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="250" />
      <source>Attribute tolerance ε_a (|difference| ≤ ε_a)</source>
      <translation>Attribuuttolerantie ε_a (|verschil| ≤ ε_a)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="251" />
      <source>Zero denominators</source>
      <translation>Noemers gelijk aan nul</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="251" />
      <source>sets left out per record (the paper's second option)</source>
      <translation>weggelaten datasets per record (de tweede optie uit het artikel)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="252" />
      <source>Study window area</source>
      <translation>Oppervlakte van het studiegebied</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="253" />
      <source>Radii of the L-functions</source>
      <translation>Stralen van de L-functies</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="253" />
      <source>{0} from 0 to {1:g}</source>
      <translation>{0} van 0 tot {1:g}</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="259" />
      <source>Risks per record (medians over the sets)</source>
      <translation>Risico's per record (medianen over de datasets)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="260" />
      <source>Type S against Type A risk</source>
      <translation>Type S-risico tegen type A-risico</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="261" />
      <source>L-functions: confidential against the synthetic band</source>
      <translation>L-functies: vertrouwelijk tegen de synthetische band</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="262" />
      <source>L-functions per group</source>
      <translation>L-functies per groep</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_risk.py" line="266" />
      <source> (chart)</source>
      <translation> (grafiek)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="14" />
      <source>No differential-privacy guarantee (no ε or δ). Published exactly: the number of records N = {0} (every set has N) and the {1} category combinations that occur in the data (one of a single record reveals that such a record exists). Measure the inferential risks (Type S and Type A) with spatialprivacy:markedrisk before publishing.</source>
      <translation>Geen garantie van differentiële privacy (geen ε of δ). Exact gepubliceerd: het aantal records N = {0} (elke dataset heeft N records) en de {1} combinaties van categorieën die in de gegevens voorkomen (een combinatie met één enkel record onthult dat zo'n record bestaat). Meet de inferentiële risico's (type S en type A) met spatialprivacy:markedrisk voordat u publiceert.</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="20" />
      <source>exact, from the intensity over the window</source>
      <translation>exact, uit de intensiteit over het studiegebied</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="22" />
      <source>{0} candidates, {1}</source>
      <translation>{0} kandidaten, {1}</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="23" />
      <source>with replacement</source>
      <translation>met teruglegging</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="23" />
      <source>without replacement</source>
      <translation>zonder teruglegging</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="28" />
      <source>Synthetic sets (L)</source>
      <translation>Synthetische datasets (L)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="29" />
      <source>Records per set (N)</source>
      <translation>Records per dataset (N)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="30" />
      <source>Locations drawn</source>
      <translation>Getrokken locaties</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="34" />
      <source>Numeric model</source>
      <translation>Numeriek model</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="36" />
      <source>Public range</source>
      <translation>Openbaar bereik</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="36" />
      <source>{0} to {1}</source>
      <translation>{0} tot {1}</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="40" />
      <source>Shared effective range (posterior mean of the fit to all points)</source>
      <translation>Gemeenschappelijk effectief bereik (a-posteriorigemiddelde van de schatting op alle punten)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="41" />
      <source>Shared field standard deviation</source>
      <translation>Gemeenschappelijke standaardafwijking van het veld</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="42" />
      <source>Combinations with their own surface</source>
      <translation>Combinaties met een eigen intensiteitsoppervlak</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="44" />
      <source>Combinations borrowing the surface of all points</source>
      <translation>Combinaties die het intensiteitsoppervlak van alle punten lenen</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="52" />
      <source>{0} records ({1:.2%}); synthetic mean share {2:.2%} (one set's 95% range {3:.2%} to {4:.2%})</source>
      <translation>{0} records ({1:.2%}); synthetisch gemiddeld aandeel {2:.2%} (95%-bereik van één dataset: {3:.2%} tot {4:.2%})</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="56" />
      <source>locations from the surface of all points</source>
      <translation>locaties uit het intensiteitsoppervlak van alle punten</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="61" />
      <source>Combinations (eq. 1; CONFIDENTIAL counts)</source>
      <translation>Combinaties (vgl. 1; VERTROUWELIJKE aantallen)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="62" />
      <source>Location model (eq. 2)</source>
      <translation>Locatiemodel (vgl. 2)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="65" />
      <source>Numeric mark (eqs. 4-5; CONFIDENTIAL)</source>
      <translation>Numeriek kenmerk (vgl. 4-5; VERTROUWELIJK)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="79" />
      <source>the normal model of log(value); every synthetic value is exp of a draw, so positive. β and the standard deviations are on the log scale; exp(β) is a geometric mean.</source>
      <translation>het normale model van log(value); elke synthetische waarde is exp van een trekking en dus positief. β en de standaardafwijkingen liggen op de logschaal; exp(β) is een meetkundig gemiddelde.</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="83" />
      <source>Log-normal model</source>
      <translation>Lognormaal model</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="87" />
      <source>geometric mean {0:.4g}, synthetic geometric mean {1:.4g}</source>
      <translation>meetkundig gemiddelde {0:.4g}, synthetisch meetkundig gemiddelde {1:.4g}</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="89" />
      <source>mean {0:.4g}, synthetic mean {1:.4g}</source>
      <translation>gemiddelde {0:.4g}, synthetisch gemiddelde {1:.4g}</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="91" />
      <source>window-average level β {0:.4g}, spatial field sd {1:.4g}</source>
      <translation>niveau β gemiddeld over het studiegebied {0:.4g}, sd van het ruimtelijke veld {1:.4g}</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="93" />
      <source>noise sd {0:.4g}</source>
      <translation>sd van de ruis {0:.4g}</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="95" />
      <source>some standard deviations held at their estimates (posterior not peaked)</source>
      <translation>sommige standaardafwijkingen vastgehouden op hun schattingen (a-posterioriverdeling zonder duidelijke piek)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="97" />
      <source>no spatial field (fewer than 10 records)</source>
      <translation>geen ruimtelijk veld (minder dan 10 records)</translation>
    </message>
    <message>
      <location filename="../processing/reports/marked_synthesis.py" line="99" />
      <source>{0:.1%} of the synthetic values negative though every value is ≥ 0: consider the log-normal model</source>
      <translation>{0:.1%} van de synthetische waarden is negatief, hoewel elke waarde ≥ 0 is: overweeg het lognormale model</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="22" />
      <source>and {0:.6g}-differential privacy when one point is added or removed ({1})</source>
      <translation>en {0:.6g}-differentiële privacy wanneer één punt wordt toegevoegd of verwijderd ({1})</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="24" />
      <source>{0:.6g} for the noisy total + {1:.6g} × {2:.6g} / {3:.6g} for the pieces</source>
      <translation>{0:.6g} voor het totaal met ruis + {1:.6g} × {2:.6g} / {3:.6g} voor de stukken</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="30" />
      <source>{0:.6g}-differential privacy when one point is moved any distance (Kim &amp; Lim, Theorem 3.10 with the network's pieces as the cells, Section 4.2: the proof needs only that the cells partition the domain, so lengths take the place of areas), {1}. The noise of each piece's intensity is Laplace with scale Δ / ε = {2:.6g} points per unit length, Δ = max over two pieces p ≠ q of 1/|S_p| + 1/|S_q| = {3:.6g}. δ = 0 for the distribution sampled (numpy's double-precision draws add a δ of the order of e^(ε−36), below 1e-15 at ε = 1, not counted). Only the add-or-remove guarantee covers n, so n is not printed in this report.</source>
      <translation>{0:.6g}-differentiële privacy wanneer één punt over een willekeurige afstand wordt verplaatst (Kim &amp; Lim, Stelling 3.10 met de stukken van het netwerk als cellen, Sectie 4.2: het bewijs vereist alleen dat de cellen een partitie van het domein vormen, dus lengtes nemen de plaats in van oppervlakten), {1}. De ruis op de intensiteit van elk stuk is Laplace-ruis met schaal Δ / ε = {2:.6g} punten per lengte-eenheid, Δ = max over twee stukken p ≠ q van 1/|S_p| + 1/|S_q| = {3:.6g}. δ = 0 voor de bemonsterde verdeling (de trekkingen van numpy in dubbele precisie voegen een δ in de orde van e^(ε−36) toe, onder 1e-15 bij ε = 1, niet meegeteld). Alleen de garantie voor toevoegen of verwijderen dekt n, dus n staat niet in dit rapport.</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="39" />
      <source>Pieces (at most the resolution long)</source>
      <translation>Stukken (ten hoogste de resolutie lang)</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="40" />
      <source>Cells after merging short pieces</source>
      <translation>Cellen na samenvoegen van korte stukken</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="41" />
      <source>Pieces merged into a neighbour</source>
      <translation>Met een buurstuk samengevoegde stukken</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="42" />
      <source>Shortest cell (CRS units)</source>
      <translation>Kortste cel (CRS-eenheden)</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="43" />
      <source>Sensitivity Δ = 1/|S_p| + 1/|S_q| (per unit length)</source>
      <translation>Gevoeligheid Δ = 1/|S_p| + 1/|S_q| (per lengte-eenheid)</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="44" />
      <source>Laplace noise scale Δ / ε_cells (points per unit length)</source>
      <translation>Schaal van de Laplace-ruis Δ / ε_cells (punten per lengte-eenheid)</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="45" />
      <source>ε for the pieces</source>
      <translation>ε voor de stukken</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="58" />
      <source>({0:g}, {1:g})-differential privacy under the α-neighbourhood along the network with α = {2:g}: two data sets are neighbours when one event is moved by at most α along the network's shortest paths; the number of points n = {3} is the same in both, so it is not protected (it is printed here). Kim &amp; Lim's Theorem 3.8 on the network's pieces (Section 4.2, Appendix E.2): the log intensity is linear along each piece between its two end knots, with a Gaussian prior whose correlation is exponential in the resistance metric, and σ²/l is fixed at κ = {4:.6g} so that the condition holds over the {5} pairs of pieces within α whatever length scale l the posterior draws. Proven: this prior is valid on every network (Anderes, Møller &amp; Rasmussen 2020, Theorem 1), and the condition of Theorem 3.8 carries over from triangles to pieces. Not proven: as in the plane, the theorem is stated for one exact draw from the posterior and its proof has gaps even there (a bound that must hold for every β; the bad event's probability taken under the prior), Kim &amp; Lim state no separate proof for networks, and this tool draws from a Laplace approximation of the posterior. The stated (ε, δ) is therefore nominal, not proven.</source>
      <translation>({0:g}, {1:g})-differentiële privacy onder de α-naburigheid langs het netwerk met α = {2:g}: twee datasets zijn naburig als één gebeurtenis over ten hoogste α langs de kortste paden van het netwerk wordt verplaatst; het aantal punten n = {3} is in beide gelijk, dus het wordt niet beschermd (het staat hier vermeld). Stelling 3.8 van Kim &amp; Lim op de stukken van het netwerk (Sectie 4.2, Appendix E.2): de log-intensiteit is lineair langs elk stuk tussen de twee eindknopen ervan, met een Gaussische a-prioriverdeling waarvan de correlatie exponentieel is in de weerstandsmetriek, en σ²/l is vastgelegd op κ = {4:.6g}, zodat de voorwaarde geldt over de {5} paren van stukken binnen α, welke lengteschaal l er ook uit de a-posterioriverdeling wordt getrokken. Bewezen: deze a-prioriverdeling is geldig op elk netwerk (Anderes, Møller &amp; Rasmussen 2020, Stelling 1), en de voorwaarde van Stelling 3.8 gaat van driehoeken over op stukken. Niet bewezen: net als in het vlak is de stelling geformuleerd voor één exacte trekking uit de a-posterioriverdeling en heeft het bewijs zelfs daar lacunes (een grens die voor elke β moet gelden; de kans op de ongunstige gebeurtenis berekend onder de a-prioriverdeling), geven Kim &amp; Lim geen afzonderlijk bewijs voor netwerken, en trekt dit hulpmiddel uit een Laplace-benadering van de a-posterioriverdeling. De opgegeven (ε, δ) is daarom nominaal, niet bewezen.</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="74" />
      <source>κ = σ²/l (fixed by the privacy condition)</source>
      <translation>κ = σ²/l (vastgelegd door de privacyvoorwaarde)</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="75" />
      <source>Pairs of pieces within α along the network, and their Σ d_R,max</source>
      <translation>Paren van stukken binnen α langs het netwerk, en hun Σ d_R,max</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="76" />
      <source>Knot pairs of the union bound, and their Σ d_R</source>
      <translation>Knoopparen van de verenigingsgrens, en hun Σ d_R</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="77" />
      <source>Nugget variance</source>
      <translation>Nuggetvariantie</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="78" />
      <source>Pieces and knots</source>
      <translation>Stukken en knopen</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="80" />
      <source>Drawn σ = √(κ l), and σ/l</source>
      <translation>Getrokken σ = √(κ l), en σ/l</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="81" />
      <source>Expected number of points of the drawn intensity</source>
      <translation>Verwacht aantal punten van de getrokken intensiteit</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="93" />
      <source>The points were first moved to their nearest location on the network and the guarantee is about these locations. The network ({0}) is public: it is assumed not to be derived from the confidential points.</source>
      <translation>De punten zijn eerst naar hun dichtstbijzijnde locatie op het netwerk verplaatst en de garantie gaat over die locaties. Het netwerk ({0}) is openbaar: aangenomen wordt dat het niet uit de vertrouwelijke punten is afgeleid.</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="98" />
      <source>Caveat: the network falls apart, and only the parts on which points lie were used (COMPONENTS). Which parts those are depends on the confidential points, so the network used, its length and everything derived from it in this report are NOT covered by this guarantee. Use the largest part, or join the network, for a release.</source>
      <translation>Let op: het netwerk valt uiteen, en alleen de delen waarop punten liggen, zijn gebruikt (COMPONENTS). Welke delen dat zijn, hangt af van de vertrouwelijke punten, dus het gebruikte netwerk, de lengte ervan en alles wat daaruit in dit rapport is afgeleid, vallen NIET onder deze garantie. Gebruik voor een publicatie het grootste deel, of verbind het netwerk.</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="105" />
      <source>{0} on a network</source>
      <translation>{0} op een netwerk</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="109" />
      <source>Alpha (α, along the network, CRS units)</source>
      <translation>Alfa (α, langs het netwerk, CRS-eenheden)</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="112" />
      <source>Resolution: longest piece (CRS units)</source>
      <translation>Resolutie: langste stuk (CRS-eenheden)</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="119" />
      <source>Each point was moved to the nearest location on a line of the network before the synthesis{0}. How far the points moved is derived from the confidential points (the largest move singles out the most isolated point), so neither this report nor the run's log gives it.</source>
      <translation>Elk punt is vóór de synthese naar de dichtstbijzijnde locatie op een lijn van het netwerk verplaatst{0}. Hoe ver de punten zijn verplaatst, is afgeleid van de vertrouwelijke punten (de grootste verplaatsing wijst het meest geïsoleerde punt aan), dus noch dit rapport noch het log van de run vermeldt het.</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="128" />
      <source>Network ({0})</source>
      <translation>Netwerk ({0})</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="129" />
      <source>Points on the network</source>
      <translation>Punten op het netwerk</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="168" />
      <source>intensity (points per unit length)</source>
      <translation>intensiteit (punten per lengte-eenheid)</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="174" />
      <source>{0} synthetic points on the network</source>
      <translation>{0} synthetische punten op het netwerk</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="184" />
      <source>Ang (geometrically corrected)</source>
      <translation>Ang (geometrisch gecorrigeerd)</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="184" />
      <source>None (Okabe &amp; Yamada)</source>
      <translation>Geen (Okabe &amp; Yamada)</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="187" />
      <source>Network length |L| (CRS units)</source>
      <translation>Netwerklengte |L| (CRS-eenheden)</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="188" />
      <source>Correction</source>
      <translation>Correctie</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="191" />
      <source>inhomogeneous (Kim &amp; Lim eq. 27, spatstat linearKinhom), intensity {0}</source>
      <translation>inhomogeen (Kim &amp; Lim vgl. 27, spatstat linearKinhom), intensiteit {0}</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="193" />
      <source>homogeneous (spatstat linearK)</source>
      <translation>homogeen (spatstat linearK)</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="199" />
      <source>With Ang's correction a Poisson process has K(r) = r on every network, and L = K. Without it (Okabe &amp; Yamada) K has no network-free Poisson value and there is no L-function: the table leaves L and theo empty.</source>
      <translation>Met de correctie van Ang heeft een Poisson-proces K(r) = r op elk netwerk, en L = K. Zonder die correctie (Okabe &amp; Yamada) heeft K geen Poisson-waarde die los van het netwerk staat en is er geen L-functie: de tabel laat L en theo leeg.</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="207" />
      <source>The K-function of the input, and how far its points moved onto the network, are derived from the confidential points. This page is a utility diagnostic for the data steward: keep it and the table internal.</source>
      <translation>De K-functie van de invoer, en hoe ver de punten ervan naar het netwerk zijn verplaatst, zijn afgeleid van de vertrouwelijke punten. Deze pagina is bruikbaarheidsdiagnostiek voor de databeheerder: houd haar en de tabel intern.</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="213" />
      <source>K-function and L-function on the network</source>
      <translation>K-functie en L-functie op het netwerk</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="213" />
      <source>Poisson (Ang): r</source>
      <translation>Poisson (Ang): r</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="214" />
      <source>About the estimator</source>
      <translation>Over de schatter</translation>
    </message>
    <message>
      <location filename="../processing/reports/network.py" line="217" />
      <source>Points on the network (CONFIDENTIAL)</source>
      <translation>Punten op het netwerk (VERTROUWELIJK)</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="16" />
      <source>total</source>
      <translation>totaal</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="17" />
      <source>geometric mean</source>
      <translation>meetkundig gemiddelde</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="17" />
      <source>mean</source>
      <translation>gemiddelde</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="28" />
      <source>whether a person's value lies in [x−c, x+c) or in [x+c, x+3c), for c = {0:g}</source>
      <translation>of de waarde van een persoon in [x−c, x+c) of in [x+c, x+3c) ligt, voor c = {0:g}</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="30" />
      <source>a person's value up to a factor k = {0:g} (relative intervals [ky, y/k))</source>
      <translation>wat de waarde van een persoon is, tot op een factor k = {0:g} (relatieve intervallen [ky, y/k))</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="31" />
      <source>ε-Pufferfish privacy with ε = {0:g} (ter Steege 2021, {1}): from the published map an attacker cannot learn {2} by more than a factor e^ε = {3:.4g}, whatever they believe about the values, as long as people's values are independent (eq. 5). Each person contributes to one cell, so this holds for the whole map. Not counted: the noise is drawn in double precision, which adds a δ of about 1e-16 at ε = 1 (5e-15 at ε = 10, 8e-11 at ε = 20, 2e-3 at ε = 30).</source>
      <translation>ε-Pufferfish-privacy met ε = {0:g} (ter Steege 2021, {1}): uit de gepubliceerde kaart kan een aanvaller niet met meer dan een factor e^ε = {3:.4g} te weten komen {2}, wat die ook over de waarden aanneemt, zolang de waarden van personen onafhankelijk zijn (vgl. 5). Elke persoon draagt bij aan één cel, dus dit geldt voor de hele kaart. Niet meegeteld: de ruis wordt in dubbele precisie getrokken, wat een δ toevoegt van ongeveer 1e-16 bij ε = 1 (5e-15 bij ε = 10, 8e-11 bij ε = 20, 2e-3 bij ε = 30).</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="37" />
      <source>Corollary 3.2</source>
      <translation>Gevolg 3.2</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="37" />
      <source>Theorem 3.1</source>
      <translation>Stelling 3.1</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="39" />
      <source>Outputs are clamped to [L, U] (mechanism B, Section 4). The thesis analyses this as (ε, δ)-Pufferfish in its cumulative form (Definition 4.2) with δ ≤ Δ = {0:.4g}, the largest per-cell bound δ_max of a published cell ({1}). With bounds fixed before looking at the data, clamping is post-processing and the ε guarantee above holds unchanged; Δ is then a conservative figure.</source>
      <translation>De uitvoer wordt afgekapt tot [L, U] (mechanisme B, Sectie 4). De scriptie analyseert dit als (ε, δ)-Pufferfish in de cumulatieve vorm (Definitie 4.2) met δ ≤ Δ = {0:.4g}, de grootste bovengrens δ_max per cel onder de gepubliceerde cellen ({1}). Als de grenzen zijn vastgelegd voordat naar de gegevens is gekeken, is het afkappen een nabewerking en blijft de bovenstaande ε-garantie onverkort gelden; Δ is dan een conservatieve waarde.</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="45" />
      <source>Corollary 4.5</source>
      <translation>Gevolg 4.5</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="45" />
      <source>Theorem 4.4</source>
      <translation>Stelling 4.4</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="47" />
      <source>None. The clamp limits were derived from the data (BOUNDS_FROM_DATA): the smallest and largest value can be read back from the map, and Pufferfish privacy must hold for every person under every prior, so no ε holds for this map. ε = {0:g} only sets the noise. Fix the bounds from public knowledge for a release.</source>
      <translation>Geen. De afkapgrenzen zijn uit de gegevens afgeleid (BOUNDS_FROM_DATA): de kleinste en grootste waarde zijn uit de kaart terug te lezen, en Pufferfish-privacy moet voor elke persoon onder elke a-prioriverdeling gelden, dus voor deze kaart geldt geen enkele ε. ε = {0:g} bepaalt alleen de ruis. Leg de grenzen voor een publicatie vast uit openbare kennis.</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="59" />
      <source>absolute</source>
      <translation>absoluut</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="59" />
      <source>relative</source>
      <translation>relatief</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="62" />
      <source>Bounded mechanism</source>
      <translation>Begrensd mechanisme</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="62" />
      <source>no</source>
      <translation>nee</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="62" />
      <source>yes</source>
      <translation>ja</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="63" />
      <source>Minimum contributors per cell</source>
      <translation>Minimumaantal bijdragers per cel</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="64" />
      <source>Published cells</source>
      <translation>Gepubliceerde cellen</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="65" />
      <source>Occupied cells left out (n below the minimum)</source>
      <translation>Weggelaten bezette cellen (n onder het minimum)</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="71" />
      <source>Contribution bounds</source>
      <translation>Grenzen voor bijdragen</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="71" />
      <source>derived from the data (NOT private)</source>
      <translation>afgeleid uit de gegevens (NIET privacyveilig)</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="75" />
      <source>derived from the data</source>
      <translation>afgeleid uit de gegevens</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="84" />
      <source>Privacy guarantee</source>
      <translation>Privacygarantie</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="87" />
      <source>What is not protected</source>
      <translation>Wat niet beschermd is</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="88" />
      <source>Locations and counts: the map shows which cells are occupied and publishes the number of contributors n of each cell exactly. The secrets protected are the values only.</source>
      <translation>Locaties en aantallen: de kaart laat zien welke cellen bezet zijn en publiceert het aantal bijdragers n van elke cel exact. Alleen de waarden zijn als geheimen beschermd.</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="97" />
      <source>Warning: bounds derived from the data</source>
      <translation>Waarschuwing: grenzen afgeleid uit de gegevens</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="98" />
      <source>The clamp limits L and U were computed from the smallest and largest value in the data. Both values can be recovered from the map: from cells published at the limits, and from delta_max or Δ together with noise_scale (with the default margin γ = L_t). This is not private.</source>
      <translation>De afkapgrenzen L en U zijn berekend uit de kleinste en de grootste waarde in de gegevens. Beide waarden zijn uit de kaart te herleiden: uit cellen die op de grenzen zijn gepubliceerd, en uit delta_max of Δ in combinatie met noise_scale (bij de standaardmarge γ = L_t). Dit is niet privacyveilig.</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="109" />
      <source>Warning: Δ ≥ 1</source>
      <translation>Waarschuwing: Δ ≥ 1</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="110" />
      <source>The thesis's bound on δ is at least 1 here, so it guarantees nothing for the clamped map.</source>
      <translation>De bovengrens van δ uit de scriptie is hier ten minste 1 en biedt dus geen enkele garantie voor de afgekapte kaart.</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="116" />
      <source>Warning: fixed seed</source>
      <translation>Waarschuwing: vaste seed</translation>
    </message>
    <message>
      <location filename="../processing/reports/pufferfish.py" line="117" />
      <source>A random seed was given, so the noise can be recomputed by anyone who knows it. Do not publish this map.</source>
      <translation>Er is een seed opgegeven, dus iedereen die deze kent kan de ruis opnieuw berekenen. Publiceer deze kaart niet.</translation>
    </message>
    <message>
      <location filename="../processing/sinks.py" line="74" />
      <source>{0}: the layer has no CRS, which {1} cannot say: readers will take its coordinates as longitude and latitude (WGS 84). Write a GeoPackage, or give the input layer its CRS.</source>
      <translation>{0}: de laag heeft geen CRS, wat {1} niet kan vastleggen: lezers zullen de coördinaten als lengte- en breedtegraad (WGS 84) opvatten. Schrijf een GeoPackage, of geef de invoerlaag haar CRS.</translation>
    </message>
    <message>
      <location filename="../processing/sinks.py" line="85" />
      <source>{0}: a Shapefile keeps only 10 characters of a field name ({1}); names that then clash are numbered (_1, _2), so check which column is which, or write a GeoPackage to keep the names.</source>
      <translation>{0}: een Shapefile bewaart maar 10 tekens van een veldnaam ({1}); namen die dan samenvallen worden genummerd (_1, _2), dus controleer welke kolom welke is, of schrijf een GeoPackage om de namen te behouden.</translation>
    </message>
    <message>
      <location filename="../processing/sinks.py" line="115" />
      <source>{0}: {1} cannot hold the label '{2}' inside it (only a GeoPackage or a GeoJSON file can); the layer name and the report say it, but the table alone does not. Write a GeoPackage or a GeoJSON file to keep the label with the data.</source>
      <translation>{0}: {1} kan het label '{2}' niet in zichzelf opnemen (alleen een GeoPackage of een GeoJSON-bestand kan dat); de laagnaam en het rapport vermelden het, maar de tabel alleen niet. Schrijf een GeoPackage of een GeoJSON-bestand om het label bij de gegevens te houden.</translation>
    </message>
    <message>
      <location filename="../processing/sinks.py" line="119" />
      <source>the data source</source>
      <translation>de gegevensbron</translation>
    </message>
    <message>
      <location filename="../processing/sinks.py" line="154" />
      <source>{0}: {1} cannot hold the label '{2}' inside the file (only a GeoPackage or a GeoJSON file can); the layer name and the report say it, but a copy of the file alone does not. Write a GeoPackage or a GeoJSON file to keep the label with the data.</source>
      <translation>{0}: {1} kan het label '{2}' niet in het bestand zelf opnemen (alleen een GeoPackage of een GeoJSON-bestand kan dat); de laagnaam en het rapport vermelden het, maar een kopie van alleen het bestand niet. Schrijf een GeoPackage of een GeoJSON-bestand om het label bij de gegevens te houden.</translation>
    </message>
    <message>
      <location filename="../processing/sinks.py" line="178" />
      <source>{0}: the output could not be written: {1}</source>
      <translation>{0}: de uitvoer kon niet worden weggeschreven: {1}</translation>
    </message>
    <message>
      <location filename="../processing/sinks.py" line="195" />
      <source>{0}: {1} features written; the GeoPackage now builds their spatial index as {2} is closed (10-20 s per million features), and the progress bar and Cancel wait until it is done.</source>
      <translation>{0}: {1} objecten geschreven; het GeoPackage bouwt nu hun ruimtelijke index terwijl {2} wordt gesloten (10-20 s per miljoen objecten), en de voortgangsbalk en Annuleren wachten tot dat klaar is.</translation>
    </message>
    <message>
      <location filename="../processing/sinks.py" line="215" />
      <source>Writing {0} points.</source>
      <translation>{0} punten worden weggeschreven.</translation>
    </message>
    <message>
      <location filename="../processing/synthesis_warnings.py" line="18" />
      <source>{0} synthetic points.</source>
      <translation>{0} synthetische punten.</translation>
    </message>
    <message>
      <location filename="../processing/synthesis_warnings.py" line="20" />
      <source>{0} synthetic points on the network.</source>
      <translation>{0} synthetische punten op het netwerk.</translation>
    </message>
    <message>
      <location filename="../processing/synthesis_warnings.py" line="22" />
      <source>The synthetic pattern is empty (no points).</source>
      <translation>Het synthetische patroon is leeg (geen punten).</translation>
    </message>
    <message>
      <location filename="../processing/synthesis_warnings.py" line="27" />
      <source>The noise alone is expected to add about {0:.0f} of the {1} synthetic points (window area × Δ / 2ε): the pattern is mostly noise. A larger {2} or ε gives a usable pattern.</source>
      <translation>Naar verwachting voegt alleen de ruis al ongeveer {0:.0f} van de {1} synthetische punten toe (oppervlakte van het studiegebied × Δ / 2ε): het patroon is vooral ruis. Een grotere {2} of ε geeft een bruikbaar patroon.</translation>
    </message>
    <message>
      <location filename="../processing/synthesis_warnings.py" line="34" />
      <source>The noise alone is expected to add about {0:.0f} of the {1} synthetic points (network length × Δ / 2ε): the pattern is mostly noise. A larger {2} or ε, or a share of ε for a noisy total ({3}), gives a usable pattern.</source>
      <translation>Naar verwachting voegt alleen de ruis al ongeveer {0:.0f} van de {1} synthetische punten toe (netwerklengte × Δ / 2ε): het patroon is vooral ruis. Een grotere {2} of ε, of een deel van ε voor een totaal met ruis ({3}), geeft een bruikbaar patroon.</translation>
    </message>
    <message>
      <location filename="../processing/synthesis_warnings.py" line="42" />
      <source>{0} synthetic points, over ten times the original count: the noise dominates. A larger {1} gives a usable pattern.</source>
      <translation>{0} synthetische punten, meer dan tien keer het oorspronkelijke aantal: de ruis overheerst. Een grotere {1} geeft een bruikbaar patroon.</translation>
    </message>
    <message>
      <location filename="../ui/distance_widget.py" line="117" />
      <source>Not set</source>
      <translation>Niet ingesteld</translation>
    </message>
    <message>
      <location filename="../ui/distance_widget.py" line="174" />
      <source>in the units of {0}, the CRS to work in</source>
      <translation>in de eenheden van {0}, het werk-CRS</translation>
    </message>
    <message>
      <location filename="../ui/distance_widget.py" line="177" />
      <source>in the units of the layer's CRS {0}</source>
      <translation>in de eenheden van het CRS {0} van de laag</translation>
    </message>
    <message>
      <location filename="../ui/distance_widget.py" line="180" />
      <source>in the units of the layer's CRS</source>
      <translation>in de eenheden van het CRS van de laag</translation>
    </message>
    <message>
      <location filename="../ui/distance_widget.py" line="193" />
      <source>CRS units</source>
      <translation>CRS-eenheden</translation>
    </message>
    <message>
      <location filename="../ui/distance_widget.py" line="198" />
      <source>pick a projected CRS to work in (Advanced Parameters)</source>
      <translation>kies een geprojecteerd werk-CRS (Geavanceerde parameters)</translation>
    </message>
    <message>
      <location filename="../ui/distance_widget.py" line="200" />
      <source>Distances in degrees are refused: pick a projected CRS to work in, or reproject the layer.</source>
      <translation>Afstanden in graden worden geweigerd: kies een geprojecteerd werk-CRS, of herprojecteer de laag.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/chart.py" line="118" />
      <source>ε (epsilon)</source>
      <translation>ε (epsilon)</translation>
    </message>
    <message>
      <location filename="../ui/explorer/chart.py" line="119" />
      <source>Computed from the confidential data: for the steward only.</source>
      <translation>Berekend uit de vertrouwelijke gegevens: alleen voor de databeheerder.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/chart.py" line="149" />
      <source>pMSE (lower: more useful)</source>
      <translation>pMSE (lager: bruikbaarder)</translation>
    </message>
    <message>
      <location filename="../ui/explorer/chart.py" line="151" />
      <source>ANS</source>
      <translation>ANS</translation>
    </message>
    <message>
      <location filename="../ui/explorer/chart.py" line="151" />
      <source>PRS</source>
      <translation>PRS</translation>
    </message>
    <message>
      <location filename="../ui/explorer/chart.py" line="151" />
      <source>Radial</source>
      <translation>Radiaal</translation>
    </message>
    <message>
      <location filename="../ui/explorer/chart.py" line="173" />
      <source>Risk with nothing released</source>
      <translation>Risico zonder publicatie</translation>
    </message>
    <message>
      <location filename="../ui/explorer/chart.py" line="177" />
      <source>Recommended</source>
      <translation>Aanbevolen</translation>
    </message>
    <message>
      <location filename="../ui/explorer/chart.py" line="180" />
      <source>({0} sets so far)</source>
      <translation>(tot nu toe {0} datasets)</translation>
    </message>
    <message>
      <location filename="../ui/explorer/data.py" line="30" />
      <source>Add a polygon layer or a table with counts to the project and pick it.</source>
      <translation>Voeg een polygoonlaag of een tabel met aantallen aan het project toe en kies die.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/data.py" line="31" />
      <source>Add a point layer to the project and pick it (the {0} needs points).</source>
      <translation>Voeg een puntenlaag aan het project toe en kies die (voor {0} zijn punten nodig).</translation>
    </message>
    <message>
      <location filename="../ui/explorer/data.py" line="34" />
      <source>{0} needs a point layer: pick one instead of “{1}”.</source>
      <translation>Voor {0} is een puntenlaag nodig: kies er een in plaats van “{1}”.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/data.py" line="36" />
      <source>DP counts needs polygons or a table: pick one instead of “{0}”.</source>
      <translation>Voor DP-aantallen zijn polygonen of een tabel nodig: kies een daarvan in plaats van “{0}”.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/data.py" line="38" />
      <source>The layer “{0}” has no features: pick a layer with data.</source>
      <translation>De laag “{0}” heeft geen objecten: kies een laag met gegevens.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/data.py" line="40" />
      <source>The layer's CRS ({0}) is in degrees: reproject the layer to a projected CRS (Vector ▸ Data Management Tools ▸ Reproject Layer) and pick the reprojected layer.</source>
      <translation>Het CRS van de laag ({0}) is in graden: herprojecteer de laag naar een geprojecteerd CRS (Vector ▸ Beheergereedschap voor gegevens ▸ Laag herprojecteren) en kies de geherprojecteerde laag.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/data.py" line="46" />
      <source>The layer “{0}” has no numeric field: the Pufferfish map needs a number per point; add one with the Field Calculator.</source>
      <translation>De laag “{0}” heeft geen numeriek veld: de Pufferfish-kaart vereist een getal per punt; voeg er een toe met de Veldberekening.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/data.py" line="51" />
      <source>The layer “{0}” needs numeric fields for the counts and the population.</source>
      <translation>De laag “{0}” heeft numerieke velden nodig voor de aantallen en de populatie.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/data.py" line="86" />
      <source>Reading the layer</source>
      <translation>Laag inlezen</translation>
    </message>
    <message>
      <location filename="../ui/explorer/data.py" line="94" />
      <source>The field “{0}” has empty (NULL) values: fill or filter them first.</source>
      <translation>Het veld “{0}” heeft lege (NULL-)waarden: vul die eerst aan of filter ze weg.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/data.py" line="101" />
      <source>The layer has no point geometries: pick a layer with points.</source>
      <translation>De laag heeft geen puntgeometrieën: kies een laag met punten.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="65" />
      <source>Privacy explorer</source>
      <translation>Privacyverkenner</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="84" />
      <source>Method family</source>
      <translation>Methodefamilie</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="86" />
      <source>Confidential layer</source>
      <translation>Vertrouwelijke laag</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="115" />
      <source>Cancel</source>
      <translation>Annuleren</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="124" />
      <source>Run</source>
      <translation>Uitvoeren</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="126" />
      <source>Open in toolbox</source>
      <translation>Openen in de toolbox</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="127" />
      <source>Save chart as PNG…</source>
      <translation>Grafiek opslaan als PNG…</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="128" />
      <source>Close</source>
      <translation>Sluiten</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="240" />
      <source>Pick the value field.</source>
      <translation>Kies het waardeveld.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="242" />
      <source>Set a cell size &gt; 0.</source>
      <translation>Stel een celgrootte &gt; 0 in.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="244" />
      <source>Set the interval half-width c &gt; 0, in the value's units.</source>
      <translation>Stel de halve intervalbreedte c &gt; 0 in, in de eenheden van de waarde.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="249" />
      <source>Pick the count field and the population field.</source>
      <translation>Kies het veld met aantallen en het populatieveld.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="251" />
      <source>Pick exactly one of the prior rate field and the prior expected count field.</source>
      <translation>Kies precies één van beide: het veld met het a-prioricijfer of het veld met het a priori verwachte aantal.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="273" />
      <source>The bounded mechanism needs public contribution bounds: give L_t and U_t.</source>
      <translation>Het begrensde mechanisme vereist openbare grenzen voor bijdragen: geef L_t en U_t op.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="275" />
      <source>The lower bound L_t must be below the upper bound U_t.</source>
      <translation>De ondergrens L_t moet onder de bovengrens U_t liggen.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="286" />
      <source>Radial radii must be &gt; 0.</source>
      <translation>Radiale stralen moeten &gt; 0 zijn.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="288" />
      <source>ANS noise variances must be &gt;= 0.</source>
      <translation>ANS-ruisvarianties moeten &gt;= 0 zijn.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="290" />
      <source>Give at least one radius, noise variance or PRS replicate.</source>
      <translation>Geef ten minste één straal, ruisvariantie of PRS-herhaling op.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="292" />
      <source>Set the risk radius &gt; 0: how close the intruder must place a person (e.g. a house's size).</source>
      <translation>Stel de risicostraal &gt; 0 in: hoe dicht de aanvaller een persoon moet plaatsen (bijv. de grootte van een huis).</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="360" />
      <source>Privacy explorer preview</source>
      <translation>Voorvertoning van de privacyverkenner</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="371" />
      <source>Computing the preview…</source>
      <translation>De voorvertoning wordt berekend…</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="418" />
      <source>The preview failed: {0}</source>
      <translation>De voorvertoning is mislukt: {0}</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="420" />
      <source>Preview canceled.</source>
      <translation>Voorvertoning geannuleerd.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="425" />
      <source>No setting has maximum risk at or below {0:g}: nothing recommended.</source>
      <translation>Geen instelling heeft een maximaal risico op of onder {0:g}: niets aanbevolen.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="427" />
      <source>Recommended: {0} (pMSE {1:.4g}, maximum risk {2:.4g}); risk with nothing released {3:.4g}.</source>
      <translation>Aanbevolen: {0} (pMSE {1:.4g}, maximaal risico {2:.4g}); risico zonder publicatie {3:.4g}.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="458" />
      <source>Running “{0}”…</source>
      <translation>“{0}” wordt uitgevoerd…</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="476" />
      <source>Done: the output was added to the project.</source>
      <translation>Klaar: de uitvoer is aan het project toegevoegd.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="479" />
      <source>The run failed: {0}</source>
      <translation>De run is mislukt: {0}</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="497" />
      <source>PNG images (*.png)</source>
      <translation>PNG-afbeeldingen (*.png)</translation>
    </message>
    <message>
      <location filename="../ui/explorer/dialog.py" line="497" />
      <source>Save chart as PNG</source>
      <translation>Grafiek opslaan als PNG</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="32" />
      <source>Pufferfish grid map</source>
      <translation>Pufferfish-rasterkaart</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="33" />
      <source>DP synthetic counts</source>
      <translation>Synthetische DP-aantallen</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="34" />
      <source>DP synthetic points</source>
      <translation>Synthetische DP-punten</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="35" />
      <source>LGCP synthesis (radial, ANS, PRS)</source>
      <translation>LGCP-synthese (radiaal, ANS, PRS)</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="207" />
      <source>“{0}” is not a number: separate the values with commas (semicolons with decimal commas).</source>
      <translation>“{0}” is geen getal: scheid de waarden met komma's (met puntkomma's als u decimale komma's gebruikt).</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="226" />
      <source>“{0}” is not a number.</source>
      <translation>“{0}” is geen getal.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="261" />
      <source>Median over the published cells</source>
      <translation>Mediaan over de gepubliceerde cellen</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="262" />
      <source>90th percentile over the published cells</source>
      <translation>90e percentiel over de gepubliceerde cellen</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="263" />
      <source>Δ (bounded mechanism)</source>
      <translation>Δ (begrensd mechanisme)</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="264" />
      <source>Expected absolute error per group</source>
      <translation>Verwachte absolute fout per groep</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="265" />
      <source>P(within ±10% of the truth)</source>
      <translation>P(binnen ±10% van de ware waarde)</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="266" />
      <source>K-function MISE</source>
      <translation>MISE van de K-functie</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="273" />
      <source>Expected error per published cell</source>
      <translation>Verwachte fout per gepubliceerde cel</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="281" />
      <source>Monte-Carlo estimates from {draws} synthetic data sets per ε.</source>
      <translation>Monte-Carloschattingen uit {draws} synthetische datasets per ε.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="282" />
      <source>Errors of the noise on each published cell, from the public counts alone; clamping (bounded mechanism) can only make them smaller.</source>
      <translation>Fouten van de ruis op elke gepubliceerde cel, alleen uit de openbare aantallen berekend; afkappen (begrensd mechanisme) kan ze alleen kleiner maken.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="286" />
      <source>Where the relative error is infinite, the noise on the log scale is too wide for the cell's count: raise epsilon or k, or the minimum count.</source>
      <translation>Waar de relatieve fout oneindig is, is de ruis op de logschaal te breed voor het aantal in de cel: verhoog epsilon of k, of het minimumaantal.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="290" />
      <source>Means over {draws} synthetic patterns per ε.</source>
      <translation>Gemiddelden over {draws} synthetische patronen per ε.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="291" />
      <source>δ = 1/n = {delta:.3g} (the default of the algorithm).</source>
      <translation>δ = 1/n = {delta:.3g} (de standaardwaarde van het algoritme).</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="292" />
      <source>ε = {epsilon:.3g}: the bandwidth lies beyond the widest one computed for the preview</source>
      <translation>ε = {epsilon:.3g}: de bandbreedte ligt buiten de breedste die voor de voorvertoning is berekend</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="295" />
      <source>ε = {epsilon:.3g}: {reason}</source>
      <translation>ε = {epsilon:.3g}: {reason}</translation>
    </message>
    <message>
      <location filename="../ui/explorer/families.py" line="296" />
      <source>No setting has maximum risk at or below {max_risk:g}: nothing recommended.</source>
      <translation>Geen instelling heeft een maximaal risico op of onder {max_risk:g}: niets aanbevolen.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="32" />
      <source>With ε = {0} an attacker's odds about any one person change by at most a factor {1}.</source>
      <translation>Met ε = {0} veranderen de kansverhoudingen van een aanvaller over elke afzonderlijke persoon met ten hoogste een factor {1}.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="56" />
      <source>Publishing {0} sets costs L·ε = {1:.4g}: too large to protect anyone.</source>
      <translation>Het publiceren van {0} datasets kost L·ε = {1:.4g}: te veel om iemand te beschermen.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="59" />
      <source>Publishing {0} sets costs L·ε = {1:.4g}: an attacker's odds about any one person change by at most a factor {2}.</source>
      <translation>Het publiceren van {0} datasets kost L·ε = {1:.4g}: de kansverhoudingen van een aanvaller over elke afzonderlijke persoon veranderen met ten hoogste een factor {2}.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="65" />
      <source>The odds bound may fail for a person with a probability of at most δ = {0:.3g}.</source>
      <translation>De grens op de kansverhoudingen kan voor een persoon falen met een kans van ten hoogste δ = {0:.3g}.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="68" />
      <source>Empty: δ = 1/n for n points, which is weak (publishing one random person's point unprotected meets it): give δ well below 1/n for a release.</source>
      <translation>Leeg: δ = 1/n bij n punten, en dat is zwak (het onbeschermd publiceren van het punt van één willekeurige persoon voldoet eraan): geef voor een publicatie een δ ruim onder 1/n.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="74" />
      <source>A person's location is hidden within {0:g} map units: moves beyond are not covered.</source>
      <translation>De locatie van een persoon is verborgen binnen {0:g} kaarteenheden: verplaatsingen daarbuiten zijn niet gedekt.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="77" />
      <source>The kernel and LGCP methods need α &gt; 0: how far one person's point is hidden.</source>
      <translation>De kernel- en LGCP-methode vereisen α &gt; 0: hoe ver het punt van één persoon wordt verborgen.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="80" />
      <source>An attacker cannot tell whether a person's value lies in [x−{0:g}, x+{0:g}) or in [x+{0:g}, x+{1:g}) beyond the factor e^ε.</source>
      <translation>Een aanvaller kan, buiten de factor e^ε, niet onderscheiden of de waarde van een persoon in [x−{0:g}, x+{0:g}) of in [x+{0:g}, x+{1:g}) ligt.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="85" />
      <source>An attacker cannot tell a person's value from one {0:.0f}% smaller (a factor {1:g}) beyond the factor e^ε.</source>
      <translation>Een aanvaller kan, buiten de factor e^ε, de waarde van een persoon niet onderscheiden van een waarde die {0:.0f}% kleiner is (een factor {1:g}).</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="90" />
      <source>Cells with fewer than {0} contributors are not published: the counts are public, so this costs no privacy, but it does not hide who is present.</source>
      <translation>Cellen met minder dan {0} bijdragers worden niet gepubliceerd: de aantallen zijn openbaar, dus dit kost geen privacy, maar het verbergt niet wie aanwezig is.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="96" />
      <source>ε = {0:.4g} buys a noisy total of the points; the cells get ε = {1:.4g}. Together: ε.</source>
      <translation>ε = {0:.4g} koopt een totaal met ruis van de punten; de cellen krijgen ε = {1:.4g}. Samen: ε.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="149" />
      <source>empty: not set</source>
      <translation>leeg: niet ingesteld</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="154" />
      <source>Kernel</source>
      <translation>Kernel</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="154" />
      <source>LGCP</source>
      <translation>LGCP</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="154" />
      <source>Laplace</source>
      <translation>Laplace</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="156" />
      <source>default (1/groups)</source>
      <translation>standaard (1/groepen)</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="157" />
      <source>default (1/n)</source>
      <translation>standaard (1/n)</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="169" />
      <source>Cell size</source>
      <translation>Celgrootte</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="171" />
      <source>Interval half-width c</source>
      <translation>Halve intervalbreedte c</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="172" />
      <source>Relative factor k</source>
      <translation>Relatieve factor k</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="179" />
      <source>Synthetic data sets L</source>
      <translation>Synthetische datasets L</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="181" />
      <source>α (tail probability)</source>
      <translation>α (staartkans)</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="187" />
      <source>α (neighbourhood radius)</source>
      <translation>α (naburigheidsstraal)</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="188" />
      <source>Share of ε for a noisy total</source>
      <translation>Deel van ε voor een totaal met ruis</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="195" />
      <source>Radial radii (comma-separated)</source>
      <translation>Radiale stralen (kommagescheiden)</translation>
    </message>
    <message>
      <location filename="../ui/explorer/knobs.py" line="196" />
      <source>ANS noise variances (comma-separated)</source>
      <translation>ANS-ruisvarianties (kommagescheiden)</translation>
    </message>
    <message>
      <location filename="../ui/explorer/mapview.py" line="41" />
      <source>One preview draw: for the steward only.</source>
      <translation>Eén trekking ter voorvertoning: alleen voor de databeheerder.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/mapview.py" line="111" />
      <source>Preview grid (for the steward only)</source>
      <translation>Voorvertoning van het raster (alleen voor de databeheerder)</translation>
    </message>
    <message>
      <location filename="../ui/explorer/mapview.py" line="121" />
      <source>Preview synthetic points (for the steward only)</source>
      <translation>Voorvertoning van synthetische punten (alleen voor de databeheerder)</translation>
    </message>
    <message>
      <location filename="../ui/explorer/runner.py" line="52" />
      <source>The algorithm {0} is not installed.</source>
      <translation>Het algoritme {0} is niet geïnstalleerd.</translation>
    </message>
    <message>
      <location filename="../ui/explorer/runner.py" line="90" />
      <source>canceled</source>
      <translation>geannuleerd</translation>
    </message>
    <message>
      <location filename="../ui/explorer/runner.py" line="92" />
      <source>the algorithm failed (see the log messages)</source>
      <translation>het algoritme is mislukt (zie de logberichten)</translation>
    </message>
  </context>
</TS>
