import type { NameCulture } from './countries.js';

/**
 * Given and family names grouped by naming culture, so that a person working in Munich is
 * more likely to be called Jonas Wagner than Hiroshi Tanaka, while every country keeps a
 * realistic mix (see `cultures` in countries.ts). Names from non-Latin scripts are in their
 * common romanisation.
 */
export interface NamePool {
  first: readonly string[];
  last: readonly string[];
}

function pool(first: string, last: string): NamePool {
  // Whitespace inside a name (a wrapped line) collapses to one space.
  const split = (s: string) => s.split(',').map((name) => name.replace(/\s+/g, ' ').trim());
  return { first: split(first), last: split(last) };
}

export const NAMES_BY_CULTURE: Readonly<Record<NameCulture, NamePool>> = {
  anglo: pool(
    `James, Mary, John, Patricia, Robert, Jennifer, Michael, Linda, William, Elizabeth, David, Barbara,
     Richard, Susan, Joseph, Jessica, Thomas, Sarah, Charles, Karen, Christopher, Lisa, Daniel, Nancy,
     Matthew, Betty, Anthony, Margaret, Mark, Sandra, Donald, Ashley, Steven, Kimberly, Paul, Emily,
     Andrew, Donna, Joshua, Michelle, Kevin, Carol, Brian, Amanda, George, Melissa, Timothy, Deborah,
     Ryan, Stephanie, Jacob, Rebecca, Gary, Laura, Nicholas, Sharon, Eric, Cynthia, Jonathan, Kathleen,
     Stephen, Amy, Justin, Angela, Scott, Shirley, Brandon, Anna, Benjamin, Brenda, Samuel, Emma,
     Gregory, Olivia, Alexander, Hannah, Patrick, Megan, Jack, Rachel, Tyler, Lauren, Aaron, Katherine,
     Adam, Grace, Nathan, Chloe, Zachary, Madison, Kyle, Abigail, Ethan, Sophie, Oliver, Charlotte, Harry,
     Lucy, Liam, Mia, Noah, Ava, Connor, Isabella, Logan, Natalie, Dylan, Victoria, Caleb, Hailey, Owen, Claire`,
    `Smith, Johnson, Williams, Brown, Jones, Miller, Davis, Wilson, Anderson, Taylor, Thomas, Moore,
     Jackson, Martin, Thompson, White, Harris, Clark, Lewis, Robinson, Walker, Young, Allen, King,
     Wright, Scott, Hill, Green, Adams, Baker, Nelson, Carter, Mitchell, Roberts, Turner, Phillips,
     Campbell, Parker, Evans, Edwards, Collins, Stewart, Morris, Murphy, Cook, Rogers, Morgan, Cooper,
     Peterson, Reed, Bailey, Bell, Kelly, Howard, Ward, Cox, Richardson, Wood, Watson, Brooks, Bennett,
     Gray, James, Hughes, Price, Sanders, Myers, Long, Ross, Foster, Powell, Jenkins, Perry, Russell,
     Sullivan, Fisher, Hamilton, Graham, Wallace, Cole, West, Jordan, Reynolds, Ellis, Marshall, Gibson,
     Hunt, Palmer, Wells, Mason, Stone, Hayes, Hudson, Fletcher, Lawrence, Dixon, Chapman, Harrison,
     Spencer, Barnes, Holmes, Knight, Lloyd, Shaw, O'Brien, O'Connor, McCarthy, Walsh, Byrne, Ryan,
     Doyle, MacDonald, Robertson, Fraser, Davies, Hughes, Owens`,
  ),
  hispanic: pool(
    `José, María, Juan, Ana, Carlos, Carmen, Luis, Laura, Jorge, Sofía, Miguel, Lucía, Javier, Isabel,
     Alejandro, Valentina, Diego, Camila, Fernando, Daniela, Ricardo, Gabriela, Andrés, Paula, Pablo,
     Marta, Sergio, Elena, Manuel, Andrea, Francisco, Natalia, Antonio, Patricia, Rafael, Mariana,
     Eduardo, Verónica, Roberto, Claudia, Héctor, Adriana, Raúl, Alejandra, Mateo, Ximena, Santiago,
     Fernanda, Sebastián, Paola, Gonzalo, Rocío, Álvaro, Lorena, Ignacio, Pilar`,
    `García, Rodríguez, Martínez, Hernández, López, González, Pérez, Sánchez, Ramírez, Torres, Flores,
     Rivera, Gómez, Díaz, Morales, Reyes, Cruz, Ortiz, Gutiérrez, Chávez, Ramos, Ruiz, Jiménez,
     Mendoza, Álvarez, Castillo, Romero, Vargas, Moreno, Herrera, Medina, Aguilar, Castro, Vázquez,
     Fernández, Navarro, Domínguez, Gil, Serrano, Molina, Suárez, Delgado, Ortega, Rubio, Marín,
     Iglesias, Soto, Contreras, Rojas, Muñoz, Silva, Vega, Fuentes, Campos, Guerrero`,
  ),
  lusophone: pool(
    `João, Maria, Pedro, Ana, Lucas, Beatriz, Gabriel, Juliana, Rafael, Fernanda, Mateus, Camila, Gustavo,
     Larissa, Felipe, Mariana, Bruno, Letícia, Thiago, Amanda, Rodrigo, Carolina, Vinícius, Bianca,
     Leonardo, Patrícia, Tiago, Inês, Diogo, Rita, Miguel, Sofia, Henrique, Luana, André, Vanessa, Caio, Débora`,
    `Silva, Santos, Oliveira, Souza, Rodrigues, Ferreira, Alves, Pereira, Lima, Gomes, Costa, Ribeiro,
     Martins, Carvalho, Almeida, Lopes, Soares, Fernandes, Vieira, Barbosa, Rocha, Dias, Nascimento,
     Andrade, Moreira, Nunes, Marques, Machado, Mendes, Freitas, Cardoso, Ramos, Gonçalves, Teixeira,
     Correia, Pinto, Sousa, Azevedo, Monteiro, Cavalcanti`,
  ),
  german: pool(
    `Lukas, Anna, Jonas, Lena, Leon, Laura, Felix, Julia, Maximilian, Sarah, Paul, Lea, Tobias, Katharina,
     Florian, Sophie, Jan, Hannah, Alexander, Marie, Stefan, Nina, Andreas, Johanna, Thomas, Sabine,
     Michael, Claudia, Markus, Franziska, Matthias, Anja, Sebastian, Jana, Daniel, Christina, Philipp,
     Katrin, Jens, Ulrike, Dominik, Vanessa, Moritz, Lisa, Niklas, Carina, Uwe, Birgit, Jürgen, Petra`,
    `Müller, Schmidt, Schneider, Fischer, Weber, Meyer, Wagner, Becker, Schulz, Hoffmann, Schäfer, Koch,
     Bauer, Richter, Klein, Wolf, Schröder, Neumann, Schwarz, Zimmermann, Braun, Krüger, Hofmann,
     Hartmann, Lange, Schmitt, Werner, Schmitz, Krause, Meier, Lehmann, Schmid, Schulze, Maier,
     Köhler, Herrmann, König, Walter, Mayer, Huber, Kaiser, Fuchs, Peters, Lang, Scholz, Möller, Weiß,
     Jung, Hahn, Vogel, Keller, Frank, Berger, Winkler, Roth, Beck, Lorenz, Baumann, Graf, Brandt`,
  ),
  french: pool(
    `Jean, Marie, Pierre, Camille, Nicolas, Julie, Thomas, Claire, Antoine, Sophie, Julien, Émilie,
     Guillaume, Céline, Mathieu, Aurélie, Alexandre, Chloé, Maxime, Léa, Hugo, Manon, Louis, Sarah,
     Arthur, Pauline, Romain, Élodie, Vincent, Anaïs, Benoît, Mathilde, François, Hélène, Olivier,
     Margaux, Étienne, Juliette, Baptiste, Inès, Théo, Charlotte, Quentin, Lucie, Clément, Océane`,
    `Martin, Bernard, Dubois, Thomas, Robert, Richard, Petit, Durand, Leroy, Moreau, Simon, Laurent,
     Lefebvre, Michel, Garcia, David, Bertrand, Roux, Vincent, Fournier, Morel, Girard, André, Lefèvre,
     Mercier, Dupont, Lambert, Bonnet, François, Martinez, Legrand, Garnier, Faure, Rousseau, Blanc,
     Guérin, Muller, Henry, Roussel, Nicolas, Perrin, Morin, Mathieu, Clément, Gauthier, Dumont,
     Lopez, Fontaine, Chevalier, Robin, Tremblay, Gagnon, Roy, Côté, Bouchard, Gauthier, Pelletier`,
  ),
  italian: pool(
    `Marco, Giulia, Alessandro, Francesca, Luca, Chiara, Andrea, Sara, Matteo, Valentina, Lorenzo, Martina,
     Francesco, Alessia, Davide, Elisa, Simone, Federica, Giuseppe, Silvia, Stefano, Elena, Riccardo,
     Giorgia, Paolo, Roberta, Giovanni, Laura, Fabio, Anna, Antonio, Ilaria, Federico, Beatrice, Gabriele,
     Serena, Emanuele, Alice, Massimo, Paola`,
    `Rossi, Russo, Ferrari, Esposito, Bianchi, Romano, Colombo, Ricci, Marino, Greco, Bruno, Gallo,
     Conti, De Luca, Mancini, Costa, Giordano, Rizzo, Lombardi, Moretti, Barbieri, Fontana, Santoro,
     Mariani, Rinaldi, Caruso, Ferrara, Galli, Martini, Leone, Longo, Gentile, Martinelli, Vitale,
     Lombardo, Serra, Coppola, De Santis, D'Angelo, Marchetti, Parisi, Villa, Conte, Ferraro, Fabbri`,
  ),
  dutch: pool(
    `Daan, Emma, Sem, Julia, Lucas, Sophie, Bram, Lotte, Thijs, Sanne, Jeroen, Anouk, Ruben, Fleur,
     Niels, Eva, Joost, Lieke, Pieter, Marieke, Bas, Femke, Sander, Iris, Wouter, Esther, Koen, Maaike,
     Jesse, Noor, Tim, Laura, Martijn, Inge, Stijn, Marloes`,
    `de Jong, Jansen, de Vries, van den Berg, van Dijk, Bakker, Janssen, Visser, Smit, Meijer, de Boer,
     Mulder, de Groot, Bos, Vos, Peters, Hendriks, van Leeuwen, Dekker, Brouwer, de Wit, Dijkstra,
     Smits, de Graaf, van der Meer, van der Linden, Kok, Jacobs, de Haan, Vermeulen, van den Heuvel,
     van der Veen, van den Broek, de Bruijn, Maes, Claes, Willems, Wouters, Goossens, Peeters`,
  ),
  nordic: pool(
    `Erik, Anna, Lars, Maria, Anders, Karin, Johan, Emma, Magnus, Sara, Nils, Ingrid, Henrik, Kristina,
     Mikael, Elin, Oskar, Linnea, Mattias, Johanna, Fredrik, Sofia, Björn, Camilla, Jonas, Hanna, Ole,
     Kari, Mads, Mette, Rasmus, Sofie, Mikko, Aino, Juha, Laura, Antti, Emilia, Kristian, Nora, Sindre, Ida,
     Jukka, Tiina, Rein, Kadri`,
    `Andersson, Johansson, Karlsson, Nilsson, Eriksson, Larsson, Olsson, Persson, Svensson, Gustafsson,
     Pettersson, Jonsson, Lindberg, Lindqvist, Berg, Lindström, Hansen, Johansen, Olsen, Larsen,
     Andersen, Pedersen, Nielsen, Kristiansen, Jensen, Christensen, Sørensen, Rasmussen, Korhonen,
     Virtanen, Mäkinen, Nieminen, Mäkelä, Hämäläinen, Laine, Heikkinen, Koskinen, Järvinen, Tamm, Saar,
     Haugen, Bakken, Dahl, Lund, Holm`,
  ),
  slavic: pool(
    `Piotr, Anna, Tomasz, Katarzyna, Paweł, Magdalena, Michał, Agnieszka, Krzysztof, Joanna, Jakub,
     Monika, Marcin, Aleksandra, Łukasz, Natalia, Jan, Tereza, Petr, Lucie, Martin, Jana, Ivan, Olena,
     Dmytro, Iryna, Andriy, Oksana, Marko, Ana, Nikola, Ivana, Luka, Maja, Stefan, Milica, Georgi, Elena,
     Dimitar, Mariya, Tomas, Ieva, Mantas, Laura, Jānis, Anastasija, Aleksandr, Ekaterina, Sergei, Olga`,
    `Nowak, Kowalski, Wiśniewski, Wójcik, Kowalczyk, Kamiński, Lewandowski, Zieliński, Szymański,
     Woźniak, Dąbrowski, Kozłowski, Jankowski, Mazur, Kwiatkowski, Novák, Svoboda, Novotný, Dvořák,
     Černý, Procházka, Kučera, Veselý, Shevchenko, Kovalenko, Bondarenko, Tkachenko, Kovalchuk,
     Melnyk, Horvat, Kovačević, Babić, Marić, Jovanović, Petrović, Nikolić, Marković, Ivanov, Georgiev,
     Dimitrov, Petrov, Kazlauskas, Jankauskas, Bērziņš, Kalniņš, Ivanova, Smirnov, Kuznetsov, Popov`,
  ),
  hungarian: pool(
    `László, Katalin, István, Éva, Zoltán, Erzsébet, Péter, Zsófia, Gábor, Eszter, Tamás, Anna, Balázs,
     Réka, Attila, Krisztina, Dániel, Nóra, Ádám, Viktória, Bence, Dóra`,
    `Nagy, Kovács, Tóth, Szabó, Horváth, Varga, Kiss, Molnár, Németh, Farkas, Balogh, Papp, Takács,
     Juhász, Lakatos, Mészáros, Oláh, Simon, Rácz, Fekete, Szilágyi, Török`,
  ),
  romanian: pool(
    `Andrei, Maria, Alexandru, Elena, Mihai, Ioana, Ion, Andreea, Gabriel, Cristina, Adrian, Alina,
     Florin, Raluca, Bogdan, Diana, Cristian, Simona, Radu, Mihaela, Ștefan, Irina`,
    `Popescu, Ionescu, Popa, Pop, Radu, Dumitru, Stan, Stoica, Gheorghe, Matei, Ciobanu, Ene, Rusu,
     Munteanu, Constantin, Dinu, Florea, Marin, Tudor, Mocanu, Moldovan, Barbu`,
  ),
  greek: pool(
    `Georgios, Maria, Konstantinos, Eleni, Dimitrios, Katerina, Ioannis, Sofia, Nikolaos, Vasiliki,
     Christos, Anastasia, Panagiotis, Despina, Alexandros, Georgia, Athanasios, Eirini, Michail, Christina`,
    `Papadopoulos, Papadakis, Georgiou, Nikolaidis, Papageorgiou, Oikonomou, Vlachos, Dimitriou,
     Konstantinou, Pappas, Karagiannis, Ioannou, Antonopoulos, Makris, Alexiou, Christodoulou,
     Athanasiou, Stavrou, Angelopoulos, Kyriakou`,
  ),
  turkish: pool(
    `Mehmet, Ayşe, Mustafa, Fatma, Ahmet, Zeynep, Ali, Elif, Hüseyin, Emine, Emre, Merve, Burak, Esra,
     Can, Selin, Murat, Büşra, Kemal, Deniz, Oğuz, Ece, Serkan, Gizem`,
    `Yılmaz, Kaya, Demir, Şahin, Çelik, Yıldız, Yıldırım, Öztürk, Aydın, Özdemir, Arslan, Doğan, Kılıç,
     Aslan, Çetin, Kara, Koç, Kurt, Özkan, Şimşek, Polat, Korkmaz, Erdoğan, Aksoy`,
  ),
  arabic: pool(
    `Mohammed, Fatima, Ahmed, Aisha, Omar, Mariam, Ali, Noor, Youssef, Layla, Khalid, Sara, Hassan, Huda,
     Ibrahim, Rania, Abdullah, Amira, Karim, Yasmin, Tariq, Salma, Faisal, Dina, Hamza, Reem, Bilal,
     Nadia, Imran, Zainab, Rashid, Hana, Samir, Leila`,
    `Al-Sayed, Haddad, Khalil, Hassan, Ibrahim, Mansour, Nasser, Saleh, Aziz, Farouk, Hamdan, Abdullah,
     Al-Harbi, Al-Qahtani, Al-Otaibi, Al-Mansouri, Al-Zahrani, Al-Shehhi, El-Amin, Benali, El Idrissi,
     Mahmoud, Mostafa, Youssef, Kareem, Darwish, Qureshi, Siddiqui, Chaudhry, Malik, Khan, Hussain,
     Rahman, Ahmed, Islam`,
  ),
  hebrew: pool(
    `Noam, Noa, Yosef, Tamar, David, Maya, Daniel, Shira, Itai, Yael, Omer, Michal, Eitan, Adi, Avi,
     Talia, Ariel, Rachel, Uri, Liat, Amit, Hila, Yonatan, Keren`,
    `Cohen, Levi, Mizrahi, Peretz, Biton, Friedman, Katz, Avraham, Azoulay, Dahan, Goldberg, Shapiro,
     Rosenberg, Ben-David, Segal, Weiss, Klein, Amar, Ohana, Carmi, Ashkenazi, Barak, Levy, Golan`,
  ),
  indian: pool(
    `Aarav, Priya, Rahul, Ananya, Amit, Pooja, Rohan, Sneha, Vikram, Neha, Arjun, Kavya, Sanjay,
     Divya, Rajesh, Anjali, Karthik, Deepika, Suresh, Meera, Aditya, Shreya, Nikhil, Swati, Vivek,
     Aishwarya, Manish, Lakshmi, Arun, Nisha, Harsh, Ritu, Siddharth, Shruti, Varun, Isha, Abhishek,
     Pallavi, Gaurav, Radhika, Praveen, Sunita, Ravi, Kiran, Naveen, Asha, Vijay, Geeta, Sachin, Rekha,
     Imran, Ayesha, Tharindu, Nadeesha, Tanvir, Farhana`,
    `Sharma, Patel, Singh, Kumar, Gupta, Reddy, Iyer, Nair, Rao, Mehta, Shah, Joshi, Verma, Agarwal,
     Chopra, Malhotra, Bhatia, Desai, Menon, Pillai, Krishnan, Subramanian, Chatterjee, Banerjee,
     Mukherjee, Das, Bose, Ghosh, Sinha, Mishra, Pandey, Tiwari, Yadav, Jain, Kapoor, Saxena, Kulkarni,
     Deshpande, Naidu, Shetty, Hegde, Bhat, Chaudhary, Thakur, Srinivasan, Venkatesh, Ahmed, Khan,
     Perera, Fernando, Silva, Hossain, Rahman, Chowdhury`,
  ),
  chinese: pool(
    `Wei, Fang, Lei, Jing, Jun, Li, Yang, Min, Hao, Xin, Tao, Yan, Chen, Hui, Ming, Ying, Jian, Lin,
     Bo, Mei, Qiang, Xiaoling, Yu, Ting, Kai, Yue, Zhen, Na, Peng, Qing, Kevin, Grace, Jason, Vivian,
     Eric, Michelle, Jacky, Winnie, Ka Wai, Siu Ming, Chih-Hao, Yi-Ting`,
    `Wang, Li, Zhang, Liu, Chen, Yang, Huang, Zhao, Wu, Zhou, Xu, Sun, Ma, Zhu, Hu, Guo, He, Lin,
     Gao, Luo, Zheng, Liang, Xie, Song, Tang, Han, Feng, Deng, Cao, Peng, Zeng, Xiao, Tian, Dong, Pan,
     Yuan, Cai, Jiang, Yu, Du, Wong, Chan, Leung, Cheung, Lau, Ng, Tan, Lim, Lee, Goh, Teo, Chua, Ong`,
  ),
  japanese: pool(
    `Haruto, Yui, Sota, Hina, Yuto, Aoi, Ren, Sakura, Takumi, Yuna, Hiroshi, Yoko, Kenji, Keiko, Takashi,
     Naoko, Daisuke, Ayumi, Kazuki, Misaki, Shota, Mai, Ryota, Emi, Yusuke, Haruka, Kenta, Rina, Satoshi,
     Tomoko, Akira, Yuki, Makoto, Kaori`,
    `Sato, Suzuki, Takahashi, Tanaka, Watanabe, Ito, Yamamoto, Nakamura, Kobayashi, Kato, Yoshida,
     Yamada, Sasaki, Yamaguchi, Matsumoto, Inoue, Kimura, Hayashi, Shimizu, Yamazaki, Mori, Abe,
     Ikeda, Hashimoto, Yamashita, Ishikawa, Nakajima, Maeda, Fujita, Ogawa, Goto, Okada, Hasegawa,
     Murakami, Kondo, Ishii`,
  ),
  korean: pool(
    `Min-jun, Seo-yeon, Ji-hoon, Ji-woo, Hyun-woo, Soo-ah, Seung-min, Ha-eun, Jae-won, Ye-jin, Dong-hyun,
     Min-seo, Sung-ho, Eun-ji, Joon-young, Hye-jin, Tae-yang, Yoon-seo, Sang-woo, Da-eun`,
    `Kim, Lee, Park, Choi, Jung, Kang, Cho, Yoon, Jang, Lim, Han, Oh, Seo, Shin, Kwon, Hwang, Ahn,
     Song, Yoo, Hong, Jeon, Ko, Moon, Baek`,
  ),
  vietnamese: pool(
    `Minh, Lan, Anh, Hoa, Tuan, Linh, Hung, Mai, Duc, Thao, Nam, Trang, Quang, Huong, Long, Ngoc, Khoa,
     Phuong, Thanh, Vy, Bao, My, Dung, Hanh`,
    `Nguyen, Tran, Le, Pham, Hoang, Huynh, Phan, Vu, Vo, Dang, Bui, Do, Ho, Ngo, Duong, Ly, Truong, Dinh,
     Lam, Mai`,
  ),
  thai: pool(
    `Somchai, Siriporn, Nattapong, Kanokwan, Thanawat, Pimchanok, Anan, Suda, Chaiwat, Pranee, Kittisak,
     Wanida, Supachai, Nattaya, Wichai, Ratana, Prasert, Jiraporn, Sarawut, Achara`,
    `Saetang, Srisuk, Wongsawat, Chaiyaporn, Rattanakorn, Boonmee, Sukprasert, Phongphan, Thongchai,
     Kittikul, Charoenrat, Sombat, Suwannarat, Intharasuk, Jaidee, Pattanapong, Siripong, Wattana`,
  ),
  malay: pool(
    `Muhammad, Nur, Ahmad, Siti, Aziz, Nurul, Faizal, Aisyah, Hafiz, Amira, Rizal, Farah, Budi, Dewi,
     Agus, Sri, Eko, Wulan, Andi, Putri, Rudi, Rina, Hendra, Indah, Bayu, Ayu, Dimas, Intan, Adi, Fitri`,
    `Abdullah, Ibrahim, Ismail, Hassan, Rahman, Hamid, Osman, Yusof, Ahmad, Othman, Zainal, Razak,
     Santoso, Wijaya, Susanto, Hidayat, Saputra, Kusuma, Pratama, Setiawan, Gunawan, Halim, Nugroho,
     Siregar, Hutapea, Harahap, Sihombing, Lubis`,
  ),
  filipino: pool(
    `Jose, Maria, Juan, Ana, Mark, Kristine, John Paul, Mary Grace, Carlo, Joy, Paolo, Angelica, Rafael,
     Camille, Miguel, Patricia, Jerome, Katherine, Christian, Jasmine, Ramon, Rowena, Nestor, Marites,
     Jericho, Bea, Renz, Trisha`,
    `Santos, Reyes, Cruz, Bautista, Ocampo, Garcia, Mendoza, Torres, Tomas, Andrada, Castillo, Flores,
     Villanueva, Ramos, Castro, Rivera, Aquino, Navarro, Salazar, Mercado, Dela Cruz, Del Rosario,
     Manalo, Soriano, Pascual, Gonzales, Aguilar, Lim`,
  ),
  'west-african': pool(
    `Chinedu, Ngozi, Oluwaseun, Adaeze, Emeka, Funmilayo, Tunde, Chiamaka, Ikechukwu, Folake, Kwame,
     Ama, Kofi, Akosua, Yaw, Abena, Babajide, Temitope, Obinna, Nneka, Segun, Yetunde, Kelechi, Amaka,
     Femi, Bukola, Kwabena, Efua, Marcus, Jasmine, Darnell, Aaliyah, Andre, Keisha, Malik, Imani,
     Terrence, Tiana, DeShawn, Ebony`,
    `Okafor, Adeyemi, Okonkwo, Adebayo, Eze, Nwosu, Ogunleye, Balogun, Okeke, Olawale, Chukwu, Afolabi,
     Mensah, Boateng, Asante, Owusu, Osei, Appiah, Agyeman, Darko, Nkrumah, Danso, Ibekwe, Obi,
     Washington, Jefferson, Banks, Freeman, Coleman, Simmons, Bryant, Hayes, Booker, Robinson`,
  ),
  'east-african': pool(
    `Wanjiru, Kamau, Achieng, Otieno, Njeri, Mwangi, Akinyi, Kipchoge, Wambui, Omondi, Nyambura, Kiprop,
     Thabo, Nomvula, Sipho, Lindiwe, Themba, Zanele, Mandla, Thandiwe, Bongani, Naledi, Lerato, Tshepo`,
    `Kariuki, Ochieng, Njoroge, Wafula, Mutua, Kimani, Odhiambo, Chebet, Kiprotich, Maina, Wanjala,
     Nkosi, Dlamini, Ndlovu, Khumalo, Mokoena, Mahlangu, Zulu, Sithole, Mthembu, Naidoo, Botha, Van der
     Merwe, Pretorius`,
  ),
};

/** Every given name and family name of the pools, without duplicates. */
